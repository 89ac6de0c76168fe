import { fitLabel, niceTicks, tickLabel } from "../../compare/plot-axes";
import { formatValue } from "../../../components/format";
import type { Summary } from "../grouping/aggregate";

/** One bar: a run's latest value, or a group's mean with its min-max whisker. */
export interface Bar {
  id: string;
  label: string;
  color: string;
  value: number;
  /** For a group: the summary the bar and whisker stand for. */
  summary?: Summary;
}

/** The drawing's width (it scales down to the card); an enlarged card draws twice as wide. */
const NARROW = 420;
const ROW = 18;
const LABEL = 120;
const RIGHT = 90;
const AXIS = 22;
/** Average width of a character of the 11 px text. */
const CHAR = 6.2;

/** Horizontal bars of latest values (SVG with text nodes, scaled to the card's width). */
export function BarCard({ axis, bars, wide = false }: { axis: string; bars: readonly Bar[]; wide?: boolean }) {
  const W = wide ? 2 * NARROW : NARROW;
  if (bars.length === 0) return <p className="muted">No run shown has a number for {axis}.</p>;
  const values = bars.flatMap((b) => (b.summary ? [b.summary.min, b.summary.max] : [b.value]));
  const lo = Math.min(0, ...values);
  const hi = Math.max(0, ...values);
  const ticks = niceTicks(lo, hi, 4);
  const from = Math.min(lo, ...ticks);
  const to = Math.max(hi, ...ticks);
  const span = to - from || 1;
  const toX = (v: number) => LABEL + ((v - from) / span) * (W - LABEL - RIGHT);
  const height = bars.length * ROW + AXIS + 4;
  const zero = toX(0);
  return (
    <div className="bar-card">
      <svg
        viewBox={`0 0 ${W} ${height}`}
        width={W}
        height={height}
        role="img"
        aria-label={`Bar chart of ${axis}`}
        className="plot bar-plot"
      >
        {ticks.map((t) => (
          <g key={t}>
            <line x1={toX(t)} x2={toX(t)} y1={0} y2={bars.length * ROW} stroke="currentColor" strokeOpacity={0.15} />
            <text x={toX(t)} y={bars.length * ROW + 15} textAnchor="middle" className="tick-label">
              {tickLabel(t)}
            </text>
          </g>
        ))}
        <line x1={zero} x2={zero} y1={0} y2={bars.length * ROW} stroke="currentColor" strokeOpacity={0.5} />
        {bars.map((b, i) => {
          const y = i * ROW;
          const x0 = Math.min(zero, toX(b.value));
          const x1 = Math.max(zero, toX(b.value));
          const text = b.summary ? `μ ${formatValue(b.summary.mean)} (${b.summary.count})` : formatValue(b.value);
          return (
            <g key={b.id} data-bar={b.label} data-value={b.value}>
              <title>
                {b.summary
                  ? `${b.label}: mean ${formatValue(b.summary.mean)}, min ${formatValue(b.summary.min)}, max ${formatValue(b.summary.max)}, ${b.summary.count} runs`
                  : `${b.label}: ${formatValue(b.value)}`}
              </title>
              <text x={LABEL - 6} y={y + 13} textAnchor="end" className="tick-label">
                {fitLabel(b.label, Math.floor((LABEL - 8) / CHAR))}
              </text>
              <rect x={x0} y={y + 3} width={Math.max(1, x1 - x0)} height={ROW - 6} fill={b.color} rx={2} />
              {b.summary ? (
                <g stroke="currentColor" strokeWidth={1.2}>
                  <line x1={toX(b.summary.min)} x2={toX(b.summary.max)} y1={y + ROW / 2} y2={y + ROW / 2} />
                  <line x1={toX(b.summary.min)} x2={toX(b.summary.min)} y1={y + 4} y2={y + ROW - 4} />
                  <line x1={toX(b.summary.max)} x2={toX(b.summary.max)} y1={y + 4} y2={y + ROW - 4} />
                </g>
              ) : null}
              <text x={Math.max(x1, b.summary ? toX(b.summary.max) : x1) + 4} y={y + 13} className="tick-label">
                {text}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
