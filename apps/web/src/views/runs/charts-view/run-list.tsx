import { Link } from "wouter";
import { RUN_LIMITS, type ChartRun } from "./chart-runs";

export interface RunListProps {
  runs: readonly ChartRun[];
  colors: ReadonlyMap<string, string>;
  /** The group each run falls in, when grouped. */
  groupOf?: (runId: string) => string;
  limit: number;
  selection: number;
  onLimit: (limit: number) => void;
  onHide: (runId: string, hide: boolean) => void;
  onPin: (runId: string, pin: boolean) => void;
}

function name(c: ChartRun): string {
  return c.run.info.run_name || c.run.info.run_id.slice(0, 8);
}

/** The runs beside the charts, each with its colour, an eye button (show/hide) and a pin. */
export function RunList({ runs, colors, groupOf, limit, selection, onLimit, onHide, onPin }: RunListProps) {
  return (
    <aside className="chart-run-list" aria-label="Runs in the charts">
      {selection > 0 ? (
        <p className="muted">
          {selection} selected run{selection === 1 ? "" : "s"}
        </p>
      ) : (
        <label>
          Runs shown{" "}
          <select value={limit} onChange={(e) => onLimit(Number(e.target.value))}>
            {RUN_LIMITS.map((n) => (
              <option key={n} value={n}>
                first {n}
              </option>
            ))}
          </select>
        </label>
      )}
      <ul>
        {runs.map((c) => {
          const id = c.run.info.run_id;
          const label = name(c);
          return (
            <li key={id} className={c.hidden ? "hidden-run" : undefined} data-run-id={id}>
              <button
                type="button"
                className="icon"
                aria-pressed={!c.hidden}
                aria-label={`${c.hidden ? "Show" : "Hide"} ${label}`}
                title={c.pinned ? "Pinned runs stay visible" : c.hidden ? "Show in the charts" : "Hide from the charts"}
                disabled={c.pinned}
                onClick={() => onHide(id, !c.hidden)}
              >
                {c.hidden ? "◌" : "●"}
              </button>
              <button
                type="button"
                className="icon"
                aria-pressed={c.pinned}
                aria-label={`${c.pinned ? "Unpin" : "Pin"} ${label}`}
                title={
                  c.pinned ? "Unpin" : "Pin: stays in the charts whatever the selection or filter of the first runs"
                }
                onClick={() => onPin(id, !c.pinned)}
              >
                {c.pinned ? "★" : "☆"}
              </button>
              <span className="swatch" style={{ background: colors.get(id) }} />
              <Link href={`/runs/${id}`} title={label}>
                {label}
              </Link>
              {groupOf ? <span className="muted"> · {groupOf(id)}</span> : null}
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
