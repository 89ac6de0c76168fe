// A metric per row: its latest value, the min and max of its history, the latest step and a
// sparkline. The run page and the logged-model page show their metrics with it.
import { formatValue } from "./format";
import { Sparkline } from "./sparkline";
import { TableHead } from "./table-head";

export interface MetricSummary {
  key: string;
  latest: number | string;
  step: number;
  /** The history in step order (empty while it loads). */
  history: readonly number[];
}

const shown = (value: number | string) => (typeof value === "number" ? formatValue(value) : value);

export function MetricSummaryTable({ rows, label }: { rows: readonly MetricSummary[]; label?: string }) {
  return (
    <div className="table-scroll">
      <table className="kv" aria-label={label}>
        <TableHead headings={["Key", "Latest", "Min", "Max", "Step", "History"]} />
        <tbody>
          {rows.map((m) => {
            const finite = m.history.filter(Number.isFinite);
            return (
              <tr key={m.key}>
                <th scope="row">{m.key}</th>
                <td className="num">{shown(m.latest)}</td>
                <td className="num">{finite.length ? formatValue(Math.min(...finite)) : ""}</td>
                <td className="num">{finite.length ? formatValue(Math.max(...finite)) : ""}</td>
                <td className="num">{m.step}</td>
                <td>
                  <Sparkline values={m.history} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The values of a metric's points in step order, then timestamp order ("NaN" and the like as NaN). */
export function historyValues(
  points: ReadonlyArray<{ step: number; timestamp: number; value: number | string }>,
): number[] {
  return [...points].sort((a, b) => a.step - b.step || a.timestamp - b.timestamp).map((p) => Number(p.value));
}
