/** A small SVG line of a metric's history (finite values only). */
export function Sparkline({
  values,
  width = 120,
  height = 24,
}: {
  values: readonly number[];
  width?: number;
  height?: number;
}) {
  const finite = values.filter(Number.isFinite);
  if (finite.length < 2) return <svg width={width} height={height} aria-hidden="true" />;
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  const span = max - min || 1;
  const points = finite
    .map(
      (v, i) =>
        `${((i / (finite.length - 1)) * (width - 2) + 1).toFixed(1)},${(height - 1 - ((v - min) / span) * (height - 2)).toFixed(1)}`,
    )
    .join(" ");
  return (
    <svg width={width} height={height} className="sparkline" aria-hidden="true">
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}
