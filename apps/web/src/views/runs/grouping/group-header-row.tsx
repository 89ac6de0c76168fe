// biome-ignore-all lint/a11y/useFocusableInteractive: a header row of the windowed ARIA grid (as the runs table's rows); focus goes to its toggle button
import "./grouping.css";
import { formatValue } from "../../../components/format";
import type { GroupItem } from "./table-groups";
import { NO_VALUE } from "./group-by";

export interface GroupHeaderRowProps {
  item: GroupItem;
  /** What the runs are grouped by (`params.model`), for the label. */
  groupLabel: string;
  index: number;
  start: number;
  height: number;
  width: number;
  columnIds: readonly string[];
  widthOf: (id: string) => number;
  leftOf: (id: string) => number | undefined;
  onToggle: (value: string) => void;
}

/** A group's header row in the runs table: collapse button, value and count, and per metric column its mean, min and max. */
export function GroupHeaderRow({
  item,
  groupLabel,
  index,
  start,
  height,
  width,
  columnIds,
  widthOf,
  leftOf,
  onToggle,
}: GroupHeaderRowProps) {
  const name = item.value === NO_VALUE ? `no ${groupLabel}` : `${groupLabel} = ${item.value}`;
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-expanded={!item.collapsed}
      className="row group-row"
      data-group={item.value}
      style={{ position: "absolute", top: 0, left: 0, height, width, transform: `translateY(${start}px)` }}
    >
      {columnIds.map((id) => {
        const left = leftOf(id);
        const summary = item.summaries.get(id);
        return (
          <div
            key={id}
            role="cell"
            className={`cell${left !== undefined ? " pinned" : ""}`}
            style={{ width: widthOf(id), left }}
          >
            {id === "select" ? (
              <button
                type="button"
                className="group-toggle"
                aria-label={`${item.collapsed ? "Expand" : "Collapse"} group ${name}`}
                aria-expanded={!item.collapsed}
                onClick={() => onToggle(item.value)}
              >
                {item.collapsed ? "▸" : "▾"}
              </button>
            ) : id === "name" ? (
              <span className="group-name" title={name}>
                <strong>{name}</strong>{" "}
                <span className="muted" data-testid="group-count">
                  {item.count} run{item.count === 1 ? "" : "s"}
                </span>
              </span>
            ) : summary ? (
              <span
                className="group-stat"
                data-mean={summary.mean}
                data-min={summary.min}
                data-max={summary.max}
                data-count={summary.count}
                title={`${id}: mean ${formatValue(summary.mean)}, min ${formatValue(summary.min)}, max ${formatValue(summary.max)} (${summary.count} runs)`}
              >
                <span>μ {formatValue(summary.mean)}</span>
                <span className="muted">
                  {formatValue(summary.min)} – {formatValue(summary.max)}
                </span>
              </span>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
