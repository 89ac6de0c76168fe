import { useState } from "react";
import { toggleColumn, type KeyKind } from "./columns";

const TITLES: Record<KeyKind, string> = { metrics: "Metrics", params: "Params", tags: "Tags" };

/** Check boxes for the metric, param and tag columns, with a text filter over the keys. */
export function ColumnPicker({
  keys,
  columns,
  extras = [],
  onChange,
  onClose,
}: {
  keys: Record<KeyKind, readonly string[]>;
  columns: readonly string[];
  /** Columns besides the keys (Datasets), listed first: id and label. */
  extras?: ReadonlyArray<{ id: string; label: string }>;
  onChange: (columns: string[]) => void;
  /** Escape inside the picker closes it. */
  onClose?: () => void;
}) {
  const [query, setQuery] = useState("");
  const q = query.toLowerCase();
  return (
    <div
      className="picker"
      role="group"
      aria-label="Columns"
      onKeyDown={(e) => {
        if (e.key === "Escape" && onClose) {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <input
        type="search"
        aria-label="Find a column"
        placeholder="find key…"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      {extras.length ? (
        <fieldset>
          <legend>Run</legend>
          {extras.map(({ id, label }) => (
            <ColumnBox key={id} id={id} label={label} columns={columns} onChange={onChange} />
          ))}
        </fieldset>
      ) : null}
      {(Object.keys(TITLES) as KeyKind[]).map((kind) => {
        const matching = keys[kind].filter((key) => key.toLowerCase().includes(q));
        return (
          <fieldset key={kind}>
            <legend>{TITLES[kind]}</legend>
            {matching.length === 0 ? <span className="muted">none</span> : null}
            {matching.map((key) => {
              const id = `${kind}.${key}`;
              return <ColumnBox key={id} id={id} label={key} columns={columns} onChange={onChange} />;
            })}
          </fieldset>
        );
      })}
    </div>
  );
}

/** One column's check box in the picker: ticked when the column shows; a click adds or removes it. */
function ColumnBox({
  id,
  label,
  columns,
  onChange,
}: {
  id: string;
  label: string;
  columns: readonly string[];
  onChange: (next: string[]) => void;
}) {
  return (
    <label>
      <input type="checkbox" checked={columns.includes(id)} onChange={() => onChange(toggleColumn(columns, id))} />{" "}
      {label}
    </label>
  );
}
