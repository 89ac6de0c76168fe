// Colours of the charts view: each run its own, or each group its own when grouped.
import { colorsFor } from "../../../charts/colors";

/** A CSS colour (`#rrggbb` or `hsl(h s% l%)`) at opacity `alpha`, for the min-max band under a group's mean line. */
export function withAlpha(color: string, alpha: number): string {
  if (/^#[0-9a-f]{6}$/i.test(color))
    return `${color}${Math.round(alpha * 255)
      .toString(16)
      .padStart(2, "0")}`;
  const hsl = /^hsl\(([^)]*)\)$/.exec(color);
  return hsl ? `hsl(${hsl[1]} / ${alpha})` : color;
}

/** Colours of the groups, by value (stable: hashed from the value, as runs' are from their ids). */
export function groupColors(values: readonly string[]): Map<string, string> {
  const byKey = colorsFor(values.map((v) => `group:${v}`));
  return new Map(values.map((v) => [v, byKey.get(`group:${v}`)!]));
}
