// Side-by-side rows of params or metrics over several runs, marking the keys whose values differ.
import type { Run } from "@tracker-ml/client";

export interface CompareRow {
  key: string;
  values: (string | number | undefined)[];
  differs: boolean;
}

export function compareRows(runs: readonly Run[], kind: "params" | "metrics"): CompareRow[] {
  const keys = [
    ...new Set(runs.flatMap((r) => (kind === "params" ? r.data.params : r.data.metrics).map((p) => p.key))),
  ].sort();
  return keys.map((key) => {
    const values = runs.map(
      (r) => (kind === "params" ? r.data.params : r.data.metrics).find((p) => p.key === key)?.value,
    );
    const distinct = new Set(values.map((v) => (v === undefined ? "\u0000missing" : String(v))));
    return { key, values, differs: distinct.size > 1 };
  });
}

/** A run's raw value of "params.model" or "metrics.acc" (params are strings, metrics numbers). */
export function rawValue(run: Run, axis: string): string | number | undefined {
  const [kind, ...rest] = axis.split(".");
  const key = rest.join(".");
  return kind === "params"
    ? run.data.params.find((p) => p.key === key)?.value
    : run.data.metrics.find((m) => m.key === key)?.value;
}

/** A numeric value of "params.lr" or "metrics.acc" in a run (undefined when absent or not a number). */
export function numericValue(run: Run, axis: string): number | undefined {
  const raw = rawValue(run, axis);
  const value = typeof raw === "string" ? (raw.trim() === "" ? Number.NaN : Number(raw)) : raw;
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}
