import type { Metric, Run } from "@tracker-ml/client";
import { useMemo } from "react";
import uPlot from "uplot";
import { api } from "../../api/client";
import { useAsync } from "../../api/use-async";
import { colorFor } from "../../charts/colors";
import { downsampleMinMax, type Point } from "../../charts/downsample";
import { smoothEma } from "../../charts/smoothing";
import { UPlotChart } from "../../charts/uplot-chart";
import { ErrorBox, Loading } from "../../components/error-box";
import { useSearchState } from "../../url/search-state";

export type XAxis = "step" | "wall" | "relative";

/** Points drawn per run and metric; uPlot also collapses each pixel column while drawing. */
const DRAW_BUCKETS = 2000;

/** One run's series on the chosen x axis (sorted), downsampled for drawing. */
export function toPoints(history: readonly Metric[], x: XAxis): Point[] {
  const sorted = [...history].sort((a, b) => a.step - b.step || a.timestamp - b.timestamp);
  const t0 = Math.min(...sorted.map((m) => m.timestamp));
  const points = sorted.map((m) => ({ x: x === "step" ? m.step : x === "wall" ? m.timestamp / 1000 : (m.timestamp - t0) / 1000, y: m.value }));
  if (x !== "step") points.sort((a, b) => a.x - b.x);
  return downsampleMinMax(points, DRAW_BUCKETS);
}

function runLabel(run: Run): string {
  return run.info.run_name || run.info.run_id.slice(0, 8);
}

/** Charts of the metrics of one or many runs, overlaid; options live in the URL. */
export function MetricCharts({ runs }: { runs: readonly Run[] }) {
  const state = useSearchState();
  const allKeys = useMemo(() => [...new Set(runs.flatMap((r) => r.data.metrics.map((m) => m.key)))].sort(), [runs]);
  const chosen = state.list("charts").filter((k) => allKeys.includes(k));
  const keys = chosen.length ? chosen : allKeys.slice(0, 4);
  const x = (state.get("x") as XAxis | undefined) ?? "step";
  const log = state.flag("log");
  const smoothing = Number(state.get("smooth") ?? 0);
  return (
    <section aria-label="Metric charts">
      <h2>Charts</h2>
      <div className="toolbar" role="group" aria-label="Chart options">
        <label>
          X axis{" "}
          <select value={x} onChange={(e) => state.set({ x: e.target.value === "step" ? undefined : e.target.value }, { replace: true })}>
            <option value="step">step</option>
            <option value="wall">wall time</option>
            <option value="relative">relative time (s)</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={log} onChange={(e) => state.set({ log: e.target.checked }, { replace: true })} /> log scale
        </label>
        <label>
          Smoothing{" "}
          <input type="range" min={0} max={0.99} step={0.01} value={smoothing} onChange={(e) => state.set({ smooth: Number(e.target.value) || undefined }, { replace: true })} />{" "}
          {smoothing.toFixed(2)}
        </label>
        <details>
          <summary>Metrics ({keys.length})</summary>
          {allKeys.map((key) => (
            <label key={key} className="block">
              <input
                type="checkbox"
                checked={keys.includes(key)}
                onChange={(e) => state.set({ charts: e.target.checked ? [...keys, key] : keys.filter((k) => k !== key) }, { replace: true })}
              />{" "}
              {key}
            </label>
          ))}
        </details>
        <span className="muted">Drag to zoom, double-click to reset.</span>
      </div>
      <div className="legend" aria-label="Legend">
        {runs.map((run) => (
          <span key={run.info.run_id}>
            <span className="swatch" style={{ background: colorFor(run.info.run_id) }} />
            {runLabel(run)}
          </span>
        ))}
      </div>
      <div className="cards">
        {keys.map((key) => (
          <MetricChart key={key} metricKey={key} runs={runs} x={x} log={log} smoothing={smoothing} />
        ))}
      </div>
    </section>
  );
}

function MetricChart({ metricKey, runs, x, log, smoothing }: { metricKey: string; runs: readonly Run[]; x: XAxis; log: boolean; smoothing: number }) {
  const withKey = runs.filter((r) => r.data.metrics.some((m) => m.key === metricKey));
  const version = withKey.map((r) => `${r.info.run_id}:${r.data.metrics.find((m) => m.key === metricKey)?.timestamp}`).join();
  const histories = useAsync(() => Promise.all(withKey.map((r) => api().getMetricHistory(r.info.run_id, metricKey))), [metricKey, version]);
  const data = useMemo(() => {
    if (!histories.data) return undefined;
    const tables = histories.data.map((h) => {
      const points = toPoints(h, x);
      return [points.map((p) => p.x), smoothEma(points.map((p) => (log && p.y <= 0 ? null : p.y)), smoothing)] as uPlot.AlignedData;
    });
    return tables.length ? uPlot.join(tables as uPlot.AlignedData[]) : ([[]] as unknown as uPlot.AlignedData);
  }, [histories.data, x, log, smoothing]);
  const options = useMemo<Omit<uPlot.Options, "width">>(
    () => ({
      height: 240,
      title: metricKey,
      scales: { x: { time: x === "wall" }, y: { distr: log ? 3 : 1 } },
      cursor: { drag: { x: true, y: false } },
      series: [{ label: x }, ...withKey.map((r) => ({ label: runLabel(r), stroke: colorFor(r.info.run_id), width: 1.5, spanGaps: true, points: { show: false } }))],
      axes: [{ stroke: "currentColor", grid: { stroke: "rgba(128,128,128,0.2)" } }, { stroke: "currentColor", grid: { stroke: "rgba(128,128,128,0.2)" } }],
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [metricKey, x, log, withKey.map((r) => r.info.run_id).join()],
  );
  return (
    <div className="chart-panel">
      <ErrorBox error={histories.error} title={metricKey} />
      {data ? <UPlotChart options={options} data={data} label={`Chart of ${metricKey}`} /> : !histories.error ? <Loading what={metricKey} /> : null}
    </div>
  );
}
