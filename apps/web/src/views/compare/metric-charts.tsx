import type { Metric, Run } from "@tracker-ml/client";
import { useMemo, useRef, useState } from "react";
import uPlot from "uplot";
import { api } from "../../api/client";
import { useAsync } from "../../api/use-async";
import { colorsFor } from "../../charts/colors";
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
            <span className="swatch" style={{ background: colorsFor(runs.map((r) => r.info.run_id)).get(run.info.run_id) }} />
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

/** Points asked per run and chart; the server keeps each bucket's first, last, min and max. */
export const POINTS_PER_RUN = 1000;

/** Sampled histories of one key for any number of runs (the server takes 100 run ids per request). */
export async function fetchSampled(runIds: readonly string[], key: string, range?: readonly [number, number]): Promise<Map<string, Metric[]>> {
  const chunks: string[][] = [];
  for (let i = 0; i < runIds.length; i += 100) chunks.push(runIds.slice(i, i + 100));
  const options = { maxResults: POINTS_PER_RUN, ...(range ? { startStep: Math.floor(range[0]), endStep: Math.ceil(range[1]) } : {}) };
  const answers = await Promise.all(chunks.map((ids) => api().getMetricHistoryBulkInterval(ids, key, options)));
  const byRun = new Map<string, Metric[]>(runIds.map((id) => [id, []]));
  for (const point of answers.flat()) byRun.get(point.runId)?.push(point);
  return byRun;
}

function MetricChart({ metricKey, runs, x, log, smoothing }: { metricKey: string; runs: readonly Run[]; x: XAxis; log: boolean; smoothing: number }) {
  const palette = colorsFor(runs.map((r) => r.info.run_id));
  const withKey = runs.filter((r) => r.data.metrics.some((m) => m.key === metricKey));
  const colors = withKey.map((r) => palette.get(r.info.run_id)!);
  const ids = withKey.map((r) => r.info.run_id);
  const version = withKey.map((r) => `${r.info.run_id}:${r.data.metrics.find((m) => m.key === metricKey)?.timestamp}`).join();
  // Zoomed step range: re-fetched from the server at finer resolution (step axis only).
  const [range, setRange] = useState<readonly [number, number] | undefined>();
  const histories = useAsync(() => fetchSampled(ids, metricKey, x === "step" ? range : undefined), [metricKey, version, x === "step" ? range?.join() : ""]);
  const data = useMemo(() => {
    if (!histories.data) return undefined;
    const tables = ids.map((id) => {
      const points = toPoints(histories.data!.get(id) ?? [], x);
      return [points.map((p) => p.x), smoothEma(points.map((p) => (log && p.y <= 0 ? null : p.y)), smoothing)] as uPlot.AlignedData;
    });
    return tables.length ? uPlot.join(tables as uPlot.AlignedData[]) : ([[]] as unknown as uPlot.AlignedData);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [histories.data, x, log, smoothing]);
  const setRangeRef = useRef(setRange);
  setRangeRef.current = setRange;
  const options = useMemo<Omit<uPlot.Options, "width">>(
    () => ({
      height: 240,
      title: metricKey,
      scales: { x: { time: x === "wall" }, y: { distr: log ? 3 : 1 } },
      cursor: { drag: { x: true, y: false } },
      series: [{ label: x }, ...withKey.map((r, i) => ({ label: runLabel(r), stroke: colors[i], width: 1.5, spanGaps: true, points: { show: false } }))],
      axes: [{ stroke: "currentColor", grid: { stroke: "rgba(128,128,128,0.2)" } }, { stroke: "currentColor", grid: { stroke: "rgba(128,128,128,0.2)" } }],
      hooks: {
        // A drag-zoom selects a step range: fetch it again at full resolution. Double-click resets.
        setSelect: [
          (u: uPlot) => {
            if (u.select.width <= 0 || x !== "step") return;
            const from = u.posToVal(u.select.left, "x");
            const to = u.posToVal(u.select.left + u.select.width, "x");
            setRangeRef.current([from, to]);
          },
        ],
      },
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [metricKey, x, log, ids.join()],
  );
  return (
    <div className="chart-panel">
      <ErrorBox error={histories.error} title={metricKey} />
      {range && x === "step" ? (
        <button type="button" onClick={() => setRange(undefined)}>
          Reset zoom (steps {Math.floor(range[0])}–{Math.ceil(range[1])})
        </button>
      ) : null}
      {data ? <UPlotChart options={options} data={data} label={`Chart of ${metricKey}`} /> : !histories.error ? <Loading what={metricKey} /> : null}
    </div>
  );
}
