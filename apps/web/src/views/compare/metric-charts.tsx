import type { Run } from "@tracker-ml/client";
import { useMemo, type KeyboardEvent } from "react";
import uPlot from "uplot";
import { useAsync } from "../../api/use-async";
import { colorsFor } from "../../charts/colors";
import { axisPoints, mergeDetail, startOf, toPoints, type XAxis } from "../../charts/metric-series";
import { fetchSampled } from "../../charts/sampled-histories";
import { smoothEma } from "../../charts/smoothing";
import { UPlotChart, type XRangeChange } from "../../charts/uplot-chart";
import { useDebounced } from "../../charts/use-debounced";
import {
  extentOf,
  isZoomedIn,
  panRange,
  parseZooms,
  stepRangeFor,
  stepsCovering,
  withZoom,
  zoomRange,
  type Range,
} from "../../charts/zoom";
import { ErrorBox, Loading } from "../../components/error-box";
import { useSearchState } from "../../url/search-state";

export type { XAxis } from "../../charts/metric-series";

/** How long a zoomed window must stay put before it is fetched again (a pan is many small moves). */
export const REFETCH_DEBOUNCE_MS = 250;

/** The share of the window one press of an arrow key (or a pan button) moves it. */
const PAN_STEP = 0.25;

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
  const view: ChartView = { x, log, smoothing };
  const zoomItems = state.list("zoom");
  const zooms = parseZooms(zoomItems);
  // A pan moves the window in place (no history entry); a zoom or a reset is a step that Back undoes.
  const setZoom = (key: string, range: Range | undefined, how: XRangeChange) =>
    state.set({ zoom: withZoom(zoomItems, key, range) }, { replace: how === "pan" });
  return (
    <section aria-label="Metric charts">
      <h2>Charts</h2>
      <div className="toolbar" role="group" aria-label="Chart options">
        <label>
          X axis{" "}
          <select
            value={x}
            onChange={(e) =>
              state.set(
                { x: e.target.value === "step" ? undefined : e.target.value, zoom: undefined },
                { replace: true },
              )
            }
          >
            <option value="step">step</option>
            <option value="wall">wall time</option>
            <option value="relative">relative time (s)</option>
          </select>
        </label>
        <label>
          <input
            type="checkbox"
            checked={log}
            onChange={(e) => state.set({ log: e.target.checked }, { replace: true })}
          />{" "}
          log scale
        </label>
        <label>
          Smoothing{" "}
          <input
            type="range"
            min={0}
            max={0.99}
            step={0.01}
            value={smoothing}
            onChange={(e) => state.set({ smooth: Number(e.target.value) || undefined }, { replace: true })}
          />{" "}
          {smoothing.toFixed(2)}
        </label>
        <details>
          <summary>Metrics ({keys.length})</summary>
          {allKeys.map((key) => (
            <label key={key} className="block">
              <input
                type="checkbox"
                checked={keys.includes(key)}
                onChange={(e) =>
                  state.set(
                    { charts: e.target.checked ? [...keys, key] : keys.filter((k) => k !== key) },
                    { replace: true },
                  )
                }
              />{" "}
              {key}
            </label>
          ))}
        </details>
        <span className="muted">
          Drag to zoom, shift+drag or middle-drag to pan, double-click to reset; on a focused chart ← → pan, + − zoom, 0
          resets.
        </span>
      </div>
      <div className="legend" role="group" aria-label="Legend">
        {runs.map((run) => (
          <span key={run.info.run_id}>
            <span
              className="swatch"
              style={{ background: colorsFor(runs.map((r) => r.info.run_id)).get(run.info.run_id) }}
            />
            {runLabel(run)}
          </span>
        ))}
      </div>
      <div className="cards">
        {keys.map((key) => (
          <MetricChart
            key={key}
            metricKey={key}
            runs={runs}
            view={view}
            zoom={zooms.get(key)}
            onZoom={(range, how) => setZoom(key, range, how)}
          />
        ))}
      </div>
    </section>
  );
}

/** A zoomed window's bounds as the user reads them on the x axis. */
export function describeRange(range: Range, x: XAxis): string {
  if (x === "step") return `steps ${Math.floor(range[0])}–${Math.ceil(range[1])}`;
  if (x === "relative") return `${range[0].toFixed(1)}–${range[1].toFixed(1)} s`;
  const time = (s: number) => new Date(s * 1000).toLocaleString();
  return `${time(range[0])} – ${time(range[1])}`;
}

/** How every chart shows its metric: the options of the toolbar, from the URL. */
interface ChartView {
  x: XAxis;
  log: boolean;
  /** The exponential moving average's weight, 0 (none) to 0.99. */
  smoothing: number;
}

interface MetricChartProps {
  metricKey: string;
  runs: readonly Run[];
  view: ChartView;
  /** The zoomed x window (in the x axis' units), from the URL. */
  zoom: Range | undefined;
  onZoom: (range: Range | undefined, how: XRangeChange) => void;
}

function MetricChart({ metricKey, runs, view: { x, log, smoothing }, zoom, onZoom }: MetricChartProps) {
  const palette = colorsFor(runs.map((r) => r.info.run_id));
  const withKey = runs.filter((r) => r.data.metrics.some((m) => m.key === metricKey));
  const colors = withKey.map((r) => palette.get(r.info.run_id)!);
  const ids = withKey.map((r) => r.info.run_id);
  const version = withKey
    .map((r) => `${r.info.run_id}:${r.data.metrics.find((m) => m.key === metricKey)?.timestamp}`)
    .join();
  // The whole history of every run, sampled: what the chart shows unzoomed and outside a zoomed window.
  const overview = useAsync(() => fetchSampled(ids, metricKey), [metricKey, version]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: ids come with overview.data (its query is keyed on them)
  const loaded = useMemo(
    () => (overview.data ? ids.map((id) => axisPoints(overview.data!.get(id) ?? [], x)) : undefined),
    [overview.data, x],
  );
  const extent = useMemo(() => (loaded ? extentOf(loaded) : undefined), [loaded]);
  // A zoomed window is fetched again at finer resolution: the server samples by step, so a window
  // of time becomes the steps its loaded points cover. Debounced, so a pan fetches where it stops.
  const wanted = !zoom
    ? undefined
    : x === "step"
      ? stepsCovering(zoom)
      : loaded
        ? stepRangeFor(loaded, zoom)
        : undefined;
  const steps = useDebounced(wanted ? `${wanted[0]}:${wanted[1]}` : "", REFETCH_DEBOUNCE_MS);
  const detail = useAsync(async () => {
    if (!steps) return undefined;
    const range = steps.split(":").map(Number) as [number, number];
    return { range, byRun: await fetchSampled(ids, metricKey, range) };
  }, [metricKey, version, steps]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: ids and colours come with overview.data (its query is keyed on them)
  const data = useMemo(() => {
    if (!overview.data) return undefined;
    const tables = ids.map((id) => {
      const whole = overview.data!.get(id) ?? [];
      const shown = detail.data ? mergeDetail(whole, detail.data.byRun.get(id) ?? [], detail.data.range) : whole;
      const points = toPoints(shown, x, startOf(whole));
      return [
        points.map((p) => p.x),
        smoothEma(
          points.map((p) => (log && p.y <= 0 ? null : p.y)),
          smoothing,
        ),
      ] as uPlot.AlignedData;
    });
    return tables.length ? uPlot.join(tables as uPlot.AlignedData[]) : ([[]] as unknown as uPlot.AlignedData);
  }, [overview.data, detail.data, x, log, smoothing]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: ids by value (ids.join()): a new array with the same runs keeps the chart
  const options = useMemo<Omit<uPlot.Options, "width">>(
    () => ({
      height: 240,
      title: metricKey,
      scales: { x: { time: x === "wall" }, y: { distr: log ? 3 : 1 } },
      cursor: { drag: { x: true, y: false } },
      series: [
        { label: x },
        ...withKey.map((r, i) => ({
          label: runLabel(r),
          stroke: colors[i],
          width: 1.5,
          spanGaps: true,
          points: { show: false },
        })),
      ],
      axes: [
        { stroke: "currentColor", grid: { stroke: "rgba(128,128,128,0.2)" } },
        { stroke: "currentColor", grid: { stroke: "rgba(128,128,128,0.2)" } },
      ],
    }),
    [metricKey, x, log, ids.join()],
  );
  const zoomed = Boolean(zoom);
  // A window that shows all the data again is no zoom at all.
  const change = (range: Range | undefined, how: XRangeChange) => {
    const next = range && extent && !isZoomedIn(range, extent) ? undefined : range;
    if (next || zoom) onZoom(next, how);
  };
  const pan = (fraction: number) => {
    if (zoom) change(panRange(zoom, fraction, extent), "pan");
  };
  const zoomBy = (factor: number) => {
    const base = zoom ?? extent;
    if (base) change(zoomRange(base, factor, extent), "zoom");
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const action = new Map<string, () => void>([
      ["ArrowLeft", () => pan(-PAN_STEP)],
      ["ArrowRight", () => pan(PAN_STEP)],
      ["+", () => zoomBy(0.5)],
      ["=", () => zoomBy(0.5)],
      ["-", () => zoomBy(2)],
      ["0", () => change(undefined, "reset")],
    ]).get(e.key);
    if (!action || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    action();
  };
  return (
    <div
      className="chart-panel"
      role="group"
      aria-label={`${metricKey} chart`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a focused chart pans and zooms with the keys in aria-keyshortcuts
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-keyshortcuts="ArrowLeft ArrowRight + - 0"
      aria-busy={detail.loading && Boolean(steps)}
    >
      <ErrorBox error={overview.error ?? detail.error} title={metricKey} />
      <div className="chart-zoom">
        <button
          type="button"
          aria-label="Pan left"
          title="Pan left (←)"
          disabled={!zoomed}
          onClick={() => pan(-PAN_STEP)}
        >
          ←
        </button>
        <button
          type="button"
          aria-label="Pan right"
          title="Pan right (→)"
          disabled={!zoomed}
          onClick={() => pan(PAN_STEP)}
        >
          →
        </button>
        <button type="button" aria-label="Zoom in" title="Zoom in (+)" disabled={!extent} onClick={() => zoomBy(0.5)}>
          +
        </button>
        <button type="button" aria-label="Zoom out" title="Zoom out (−)" disabled={!zoomed} onClick={() => zoomBy(2)}>
          −
        </button>
        {zoom ? (
          <button type="button" onClick={() => change(undefined, "reset")}>
            Reset zoom ({describeRange(zoom, x)})
          </button>
        ) : null}
      </div>
      {data ? (
        <UPlotChart options={options} data={data} label={`Chart of ${metricKey}`} xRange={zoom} onXRange={change} />
      ) : !overview.error ? (
        <Loading what={metricKey} />
      ) : null}
    </div>
  );
}
