// Axes of the compare page's scatter and parallel-coordinates plots: a param or metric over the
// compared runs, numeric (with round tick values) or, when any value is not a number, categorical.
import type { Run } from "@tracker-ml/client";
import { numericValue, rawValue } from "./compare-table";

export interface PlotAxis {
  /** "params.lr", "metrics.acc". */
  name: string;
  kind: "number" | "category";
  /** Where a run's value sits along the axis, 0 (bottom/left) to 1; undefined when the run has none. */
  position(run: Run): number | undefined;
  /** Labelled marks along the axis, at positions 0..1. */
  ticks: { at: number; label: string }[];
}

/** About `count` round values covering [min, max] (1, 2 or 5 times a power of ten apart). */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) return [min];
  const raw = (max - min) / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  // The round step whose number of intervals is nearest `count - 1`.
  const steps = [1, 2, 5, 10].map((m) => m * power);
  const intervals = (s: number) => Math.abs((max - min) / s - (count - 1));
  const step = steps.reduce((best, s) => (intervals(s) < intervals(best) ? s : best));
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) {
    // Rounded to the step's decimals, so 0.1 + 0.2 shows as 0.3.
    ticks.push(Number(v.toFixed(Math.max(0, -Math.floor(Math.log10(step))))));
  }
  return ticks;
}

/** Short text for a tick value: few digits, exponent only for very large or small numbers. */
export function tickLabel(v: number): string {
  if (v === 0) return "0";
  const abs = Math.abs(v);
  if (abs >= 1e5 || abs < 1e-3) return v.toExponential(1).replace(/\.0e/, "e");
  return String(Number(v.toPrecision(4)));
}

/** The axis of `name` over `runs`: numeric when every present value is a number, else categorical. */
export function plotAxis(runs: readonly Run[], name: string): PlotAxis {
  const present = runs.map((r) => rawValue(r, name)).filter((v) => v !== undefined);
  const numbers = runs.map((r) => numericValue(r, name)).filter((v): v is number => v !== undefined);
  if (present.length > 0 && numbers.length < present.length) {
    const categories = [...new Set(present.map(String))].sort((a, b) => a.localeCompare(b));
    const at = (i: number) => (categories.length === 1 ? 0.5 : i / (categories.length - 1));
    return {
      name,
      kind: "category",
      position: (run) => {
        const v = rawValue(run, name);
        return v === undefined ? undefined : at(categories.indexOf(String(v)));
      },
      ticks: categories.map((label, i) => ({ at: at(i), label })),
    };
  }
  const min = Math.min(...numbers);
  const max = Math.max(...numbers);
  const span = max - min;
  const at = (v: number) => (span === 0 ? 0.5 : (v - min) / span);
  return {
    name,
    kind: "number",
    position: (run) => {
      const v = numericValue(run, name);
      return v === undefined ? undefined : at(v);
    },
    ticks: numbers.length ? niceTicks(min, max).map((v) => ({ at: at(v), label: tickLabel(v) })) : [],
  };
}

/** `text` cut to `chars` characters with an ellipsis (the full text goes in a tooltip). */
export function fitLabel(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, Math.max(1, chars - 1))}…`;
}
