import type { Run } from "@tracker-ml/client";
import { Link } from "wouter";
import { api } from "../../api/client";
import { useAsync } from "../../api/use-async";
import { colorsFor } from "../../charts/colors";
import { ErrorBox, Loading } from "../../components/error-box";
import { formatValue } from "../../components/format";
import { useSearchState } from "../../url/search-state";
import { useLiveRefresh } from "../runs/use-live-refresh";
import { compareRows, type CompareRow } from "./compare-table";
import { MetricCharts } from "./metric-charts";
import { ParallelCoordinates, ScatterPlot } from "./plots";

function runName(run: Run) {
  return run.info.run_name || run.info.run_id.slice(0, 8);
}

function SideBySide({
  title,
  runs,
  rows,
  onlyDiff,
}: {
  title: string;
  runs: readonly Run[];
  rows: CompareRow[];
  onlyDiff: boolean;
}) {
  const shown = onlyDiff ? rows.filter((r) => r.differs) : rows;
  const colors = colorsFor(runs.map((r) => r.info.run_id));
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      <div className="table-scroll">
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Key</th>
              {runs.map((run) => (
                <th scope="col" key={run.info.run_id}>
                  <span className="swatch" style={{ background: colors.get(run.info.run_id) }} />
                  <Link href={`/runs/${run.info.run_id}`}>{runName(run)}</Link>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={row.key} className={row.differs ? "diff" : undefined} data-differs={row.differs}>
                <th scope="row">
                  {row.key}
                  {row.differs ? <span className="sr-only"> (differs)</span> : null}
                </th>
                {row.values.map((v, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: one cell per compared run, in the header's order
                  <td key={i} className={typeof v === "number" ? "num" : "pre"}>
                    {typeof v === "number" ? formatValue(v) : (v ?? "—")}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function CompareRunsPage() {
  const state = useSearchState();
  const ids = state.list("runs");
  const runs = useAsync(() => Promise.all(ids.map((id) => api().getRun(id))), [ids.join(",")]);
  const [paused] = [state.flag("paused")];
  useLiveRefresh(Boolean(runs.data?.some((r) => r.info.status === "RUNNING")), paused, async () => runs.reload());
  if (ids.length === 0) return <p>No runs chosen: select runs in a runs table and press Compare.</p>;
  if (runs.error && !runs.data) return <ErrorBox error={runs.error} title="Could not load the runs" />;
  if (!runs.data) return <Loading what="runs" />;
  const list = runs.data;
  const params = compareRows(list, "params");
  const metrics = compareRows(list, "metrics");
  const axes = [...params.map((p) => `params.${p.key}`), ...metrics.map((m) => `metrics.${m.key}`)];
  const xAxis = state.get("sx") ?? axes[0] ?? "";
  const yAxis = state.get("sy") ?? axes[1] ?? axes[0] ?? "";
  const chosenPc = state.list("pc").filter((a) => axes.includes(a));
  const pcAxes = chosenPc.length ? chosenPc : axes.slice(0, 6);
  const onlyDiff = state.flag("diff");
  return (
    <div>
      <h1>Compare {list.length} runs</h1>
      <label>
        <input
          type="checkbox"
          checked={onlyDiff}
          onChange={(e) => state.set({ diff: e.target.checked }, { replace: true })}
        />{" "}
        only keys that differ
      </label>
      <SideBySide title="Parameters" runs={list} rows={params} onlyDiff={onlyDiff} />
      <SideBySide title="Metrics (latest)" runs={list} rows={metrics} onlyDiff={onlyDiff} />
      <MetricCharts runs={list} />
      <section aria-label="Scatter plot">
        <h2>Scatter</h2>
        <div className="toolbar">
          <label>
            X{" "}
            <select value={xAxis} onChange={(e) => state.set({ sx: e.target.value }, { replace: true })}>
              {axes.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </label>
          <label>
            Y{" "}
            <select value={yAxis} onChange={(e) => state.set({ sy: e.target.value }, { replace: true })}>
              {axes.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </label>
        </div>
        {xAxis && yAxis ? <ScatterPlot runs={list} xAxis={xAxis} yAxis={yAxis} /> : null}
      </section>
      <section aria-label="Parallel coordinates">
        <h2>Parallel coordinates</h2>
        <details>
          <summary>Axes ({pcAxes.length})</summary>
          {axes.map((a) => (
            <label key={a} className="block">
              <input
                type="checkbox"
                checked={pcAxes.includes(a)}
                onChange={(e) =>
                  state.set(
                    { pc: e.target.checked ? [...pcAxes, a] : pcAxes.filter((x) => x !== a) },
                    { replace: true },
                  )
                }
              />{" "}
              {a}
            </label>
          ))}
        </details>
        <ParallelCoordinates runs={list} axes={pcAxes} />
      </section>
    </div>
  );
}
