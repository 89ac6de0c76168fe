import { useState } from "react";
import { CARD_LABELS, CARD_TYPES, parseCard, type CardSpec, type CardType } from "./card-spec";

/** The form that adds a chart card: its type and the metric or params it shows. */
export function AddCard({
  metricKeys,
  paramKeys,
  onAdd,
}: {
  metricKeys: readonly string[];
  paramKeys: readonly string[];
  onAdd: (card: CardSpec) => void;
}) {
  const [type, setType] = useState<CardType>("line");
  const metrics = metricKeys.map((k) => `metrics.${k}`);
  const axes = type === "line" ? metrics : [...metrics, ...paramKeys.map((k) => `params.${k}`)];
  const [chosen, setChosen] = useState<string[]>([]);
  const slots = type === "scatter" ? ["X axis", "Y axis"] : type === "parallel" ? [] : ["Metric"];
  const picked = (i: number) => (chosen[i] && axes.includes(chosen[i]) ? chosen[i] : (axes[i] ?? axes[0] ?? ""));
  const card =
    type === "parallel"
      ? parseCard([type, ...chosen.filter((a) => axes.includes(a))].join(":"))
      : parseCard([type, ...slots.map((_, i) => picked(i))].join(":"));
  return (
    <form
      className="toolbar add-card"
      aria-label="Add a chart"
      onSubmit={(e) => {
        e.preventDefault();
        if (card) onAdd(card);
      }}
    >
      <label>
        Chart{" "}
        <select
          aria-label="Chart type"
          value={type}
          onChange={(e) => {
            setType(e.target.value as CardType);
            setChosen([]);
          }}
        >
          {CARD_TYPES.map((t) => (
            <option key={t} value={t}>
              {CARD_LABELS[t]}
            </option>
          ))}
        </select>
      </label>
      {slots.map((slot, i) => (
        <label key={slot}>
          {slot}{" "}
          <select
            aria-label={slot}
            value={picked(i)}
            onChange={(e) => {
              const next = slots.map((_, j) => picked(j));
              next[i] = e.target.value;
              setChosen(next);
            }}
          >
            {axes.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
      ))}
      {type === "parallel" ? (
        <details>
          <summary>Axes ({chosen.length})</summary>
          {axes.map((a) => (
            <label key={a} className="block">
              <input
                type="checkbox"
                checked={chosen.includes(a)}
                onChange={(e) => setChosen(e.target.checked ? [...chosen, a] : chosen.filter((c) => c !== a))}
              />{" "}
              {a}
            </label>
          ))}
        </details>
      ) : null}
      <button type="submit" className="primary" disabled={!card}>
        Add chart
      </button>
    </form>
  );
}
