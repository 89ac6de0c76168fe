import type { Run } from "@tracker-ml/client";
import { colorsFor } from "../../charts/colors";
import { formatValue } from "../../components/format";
import { numericValue } from "./compare-table";

const W = 640;
const H = 320;
const PAD = 48;

function scale(values: number[]): (v: number) => number {
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  return (v) => (v - min) / span;
}

function runName(run: Run) {
  return run.info.run_name || run.info.run_id.slice(0, 8);
}

/** A scatter plot of one param/metric against another, one dot per run (SVG, text as text nodes). */
export function ScatterPlot({ runs, xAxis, yAxis }: { runs: readonly Run[]; xAxis: string; yAxis: string }) {
  const points = runs.flatMap((run) => {
    const x = numericValue(run, xAxis);
    const y = numericValue(run, yAxis);
    return x === undefined || y === undefined ? [] : [{ run, x, y }];
  });
  if (points.length === 0)
    return (
      <p className="muted">
        No run has numeric values for both {xAxis} and {yAxis}.
      </p>
    );
  const sx = scale(points.map((p) => p.x));
  const sy = scale(points.map((p) => p.y));
  return (
    <svg width={W} height={H} role="img" aria-label={`Scatter of ${yAxis} against ${xAxis}`}>
      <line x1={PAD} y1={H - PAD} x2={W - 10} y2={H - PAD} stroke="currentColor" />
      <line x1={PAD} y1={10} x2={PAD} y2={H - PAD} stroke="currentColor" />
      <text x={W / 2} y={H - 8} textAnchor="middle">
        {xAxis}
      </text>
      <text x={12} y={H / 2} transform={`rotate(-90 12 ${H / 2})`} textAnchor="middle">
        {yAxis}
      </text>
      {points.map(({ run, x, y }) => (
        <circle
          key={run.info.run_id}
          cx={PAD + sx(x) * (W - PAD - 20)}
          cy={H - PAD - sy(y) * (H - PAD - 20)}
          r={5}
          fill={colorsFor(runs.map((r) => r.info.run_id)).get(run.info.run_id)}
        >
          <title>{`${runName(run)}: ${xAxis}=${formatValue(x)}, ${yAxis}=${formatValue(y)}`}</title>
        </circle>
      ))}
    </svg>
  );
}

/** Parallel coordinates over the chosen axes, one line per run. */
export function ParallelCoordinates({ runs, axes }: { runs: readonly Run[]; axes: readonly string[] }) {
  if (axes.length < 2) return <p className="muted">Choose at least two params or metrics.</p>;
  const scales = axes.map((axis) => {
    const values = runs.map((r) => numericValue(r, axis)).filter((v): v is number => v !== undefined);
    return { axis, min: Math.min(...values), max: Math.max(...values), s: values.length ? scale(values) : () => 0.5 };
  });
  const step = (W - 2 * PAD) / (axes.length - 1);
  return (
    <svg width={W} height={H} role="img" aria-label="Parallel coordinates">
      {scales.map((a, i) => (
        <g key={a.axis}>
          <line x1={PAD + i * step} y1={20} x2={PAD + i * step} y2={H - 40} stroke="currentColor" />
          <text x={PAD + i * step} y={H - 22} textAnchor="middle">
            {a.axis}
          </text>
          <text x={PAD + i * step + 4} y={16}>
            {Number.isFinite(a.max) ? formatValue(a.max) : ""}
          </text>
          <text x={PAD + i * step + 4} y={H - 44}>
            {Number.isFinite(a.min) ? formatValue(a.min) : ""}
          </text>
        </g>
      ))}
      {runs.map((run) => {
        const pts = scales.flatMap((a, i) => {
          const v = numericValue(run, a.axis);
          return v === undefined ? [] : [`${PAD + i * step},${H - 40 - a.s(v) * (H - 60)}`];
        });
        return (
          <polyline
            key={run.info.run_id}
            points={pts.join(" ")}
            fill="none"
            stroke={colorsFor(runs.map((r) => r.info.run_id)).get(run.info.run_id)}
            strokeWidth={2}
          >
            <title>{runName(run)}</title>
          </polyline>
        );
      })}
    </svg>
  );
}
