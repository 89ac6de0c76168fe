import type { Run } from "@tracker-ml/client";
import { colorsFor } from "../../charts/colors";
import { rawValue } from "./compare-table";
import { fitLabel, plotAxis, type PlotAxis } from "./plot-axes";

const W = 640;
const H = 340;
/** Average width of a character of the plots' 12 px text, for fitting labels. */
const CHAR = 7;

function runName(run: Run) {
  return run.info.run_name || run.info.run_id.slice(0, 8);
}

function valueText(run: Run, axis: string): string {
  const v = rawValue(run, axis);
  return v === undefined ? "—" : String(v);
}

/** A scatter plot of one param/metric against another, one dot per run, with labelled axes (SVG, text as text nodes). */
export function ScatterPlot({
  runs,
  xAxis,
  yAxis,
  colors = colorsFor(runs.map((r) => r.info.run_id)),
}: {
  runs: readonly Run[];
  xAxis: string;
  yAxis: string;
  /** A colour per run id (by default each run's own); the runs page's charts colour runs by group. */
  colors?: ReadonlyMap<string, string>;
}) {
  const x = plotAxis(runs, xAxis);
  const y = plotAxis(runs, yAxis);
  const points = runs.flatMap((run) => {
    const px = x.position(run);
    const py = y.position(run);
    return px === undefined || py === undefined ? [] : [{ run, px, py }];
  });
  if (points.length === 0)
    return (
      <p className="muted">
        No run has values for both {xAxis} and {yAxis}.
      </p>
    );
  // Room at the left for the widest y label (at most 12 characters), at the bottom for x labels.
  const left = 28 + Math.min(12, Math.max(...y.ticks.map((t) => t.label.length), 1)) * CHAR;
  const bottom = 48;
  const top = 12;
  const right = 16;
  const toX = (p: number) => left + p * (W - left - right);
  const toY = (p: number) => H - bottom - p * (H - bottom - top);
  const xChars = Math.max(4, Math.floor((W - left - right) / Math.max(1, x.ticks.length) / CHAR));
  return (
    <div className="plot-scroll">
      <svg
        width={W}
        height={H}
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Scatter of ${yAxis} against ${xAxis}`}
        className="plot"
        data-testid="scatter"
      >
        <line x1={left} y1={H - bottom} x2={W - right} y2={H - bottom} stroke="currentColor" />
        <line x1={left} y1={top} x2={left} y2={H - bottom} stroke="currentColor" />
        <g className="ticks x-ticks">
          {x.ticks.map((t) => (
            <g key={t.label}>
              <line x1={toX(t.at)} x2={toX(t.at)} y1={H - bottom} y2={H - bottom + 5} stroke="currentColor" />
              <text x={toX(t.at)} y={H - bottom + 18} textAnchor="middle">
                {fitLabel(t.label, xChars)}
                <title>{t.label}</title>
              </text>
            </g>
          ))}
        </g>
        <g className="ticks y-ticks">
          {y.ticks.map((t) => (
            <g key={t.label}>
              <line x1={left - 5} x2={left} y1={toY(t.at)} y2={toY(t.at)} stroke="currentColor" />
              <text x={left - 8} y={toY(t.at) + 4} textAnchor="end">
                {fitLabel(t.label, 12)}
                <title>{t.label}</title>
              </text>
            </g>
          ))}
        </g>
        <text x={(left + W - right) / 2} y={H - 8} textAnchor="middle" className="axis-name">
          {xAxis}
        </text>
        <text
          x={12}
          y={(top + H - bottom) / 2}
          transform={`rotate(-90 12 ${(top + H - bottom) / 2})`}
          textAnchor="middle"
          className="axis-name"
        >
          {yAxis}
        </text>
        {points.map(({ run, px, py }) => (
          <circle key={run.info.run_id} cx={toX(px)} cy={toY(py)} r={5} fill={colors.get(run.info.run_id)}>
            <title>{`${runName(run)}: ${xAxis}=${valueText(run, xAxis)}, ${yAxis}=${valueText(run, yAxis)}`}</title>
          </circle>
        ))}
      </svg>
    </div>
  );
}

/** One vertical axis of the parallel-coordinates plot: its name (cut to fit, full in a tooltip) and tick labels. */
function ParallelAxis({
  axis,
  x,
  index,
  count,
  room,
  tickRoom,
  top,
  bottom,
}: {
  axis: PlotAxis;
  x: number;
  index: number;
  count: number;
  /** Horizontal room for the axis' name (centred on it). */
  room: number;
  /** Horizontal room for its tick labels (beside it, up to the next axis). */
  tickRoom: number;
  top: number;
  bottom: number;
}) {
  const first = index === 0;
  const last = index === count - 1;
  // Names alternate between two rows, so neighbours never overlap; each may take two gaps' width.
  // The outer ones are anchored at the plot's edges, so they never leave it.
  const nameY = H - (index % 2 === 0 ? 24 : 8);
  const nameX = first ? 2 : last ? W - 2 : x;
  const nameAnchor = first ? "start" : last ? "end" : "middle";
  const toY = (p: number) => bottom - p * (bottom - top);
  const tickChars = Math.max(3, Math.floor((tickRoom - 12) / CHAR));
  return (
    <g data-axis={axis.name}>
      <line x1={x} y1={top} x2={x} y2={bottom} stroke="currentColor" />
      <text x={nameX} y={nameY} textAnchor={nameAnchor} className="axis-name">
        {fitLabel(axis.name, Math.max(4, Math.floor(room / CHAR)))}
        <title>{axis.name}</title>
      </text>
      {axis.ticks.map((t) => (
        <text
          key={t.label}
          x={last ? x - 6 : x + 6}
          y={toY(t.at) + 4}
          textAnchor={last ? "end" : "start"}
          className="tick-label"
        >
          {fitLabel(t.label, tickChars)}
          <title>{t.label}</title>
        </text>
      ))}
    </g>
  );
}

/** Parallel coordinates over the chosen axes, one line per run; string params are categorical axes. */
export function ParallelCoordinates({
  runs,
  axes,
  colors = colorsFor(runs.map((r) => r.info.run_id)),
}: {
  runs: readonly Run[];
  axes: readonly string[];
  /** A colour per run id (by default each run's own). */
  colors?: ReadonlyMap<string, string>;
}) {
  if (axes.length < 2) return <p className="muted">Choose at least two params or metrics.</p>;
  const scales = axes.map((axis) => plotAxis(runs, axis));
  const side = 40;
  const step = (W - 2 * side) / (axes.length - 1);
  const top = 14;
  const bottom = H - 48;
  const xOf = (i: number) => side + i * step;
  return (
    <div className="plot-scroll">
      <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label="Parallel coordinates" className="plot">
        {runs.map((run) => {
          const pts = scales.flatMap((a, i) => {
            const p = a.position(run);
            return p === undefined ? [] : [`${xOf(i)},${bottom - p * (bottom - top)}`];
          });
          return (
            <polyline
              key={run.info.run_id}
              points={pts.join(" ")}
              fill="none"
              stroke={colors.get(run.info.run_id)}
              strokeWidth={2}
              strokeOpacity={0.85}
            >
              <title>{runName(run)}</title>
            </polyline>
          );
        })}
        {scales.map((a, i) => (
          <ParallelAxis
            key={a.name}
            axis={a}
            x={xOf(i)}
            index={i}
            count={scales.length}
            room={i === 0 || i === scales.length - 1 ? step + side - 12 : 2 * step - 12}
            tickRoom={step}
            top={top}
            bottom={bottom}
          />
        ))}
      </svg>
    </div>
  );
}
