// Conversions between the ergonomic layer's values and revision C's wire format.
import type { Metric, MetricInput, ParamsInput, Run, TagsInput } from "./entities.js";
import type { components } from "./generated/rev-c.js";

type Schemas = components["schemas"];
export type WireMetric = Schemas["MetricInput"];
export type WireKeyValue = { key: string; value: string };
export type WireDouble = number | "NaN" | "Infinity" | "-Infinity";

/** A number as the API accepts it: finite values as numbers, NaN and the infinities as strings (JSON has neither). */
export function toWireDouble(value: number): WireDouble {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "Infinity";
  if (value === -Infinity) return "-Infinity";
  return value;
}

/** A double from a response as a number. */
export function fromWireDouble(value: Schemas["DoubleOutput"]): number {
  if (typeof value === "number") return value;
  if (value === "NaN") return NaN;
  return value === "-Infinity" ? -Infinity : Infinity;
}

export function toWireMetric(metric: MetricInput, now: number = Date.now()): WireMetric {
  return {
    key: metric.key,
    value: toWireDouble(metric.value),
    timestamp: metric.timestamp ?? now,
    step: metric.step ?? 0,
  };
}

export function toKeyValues(input: TagsInput | ParamsInput | undefined): WireKeyValue[] {
  if (input === undefined) return [];
  const pairs: ReadonlyArray<{ readonly key: string; readonly value: unknown }> = Array.isArray(input)
    ? (input as ReadonlyArray<{ readonly key: string; readonly value: unknown }>)
    : Object.entries(input).map(([key, value]) => ({ key, value }));
  return pairs.map(({ key, value }) => ({ key, value: String(value) }));
}

export function fromWireMetric(metric: Schemas["Metric"]): Metric {
  return { key: metric.key, value: fromWireDouble(metric.value), timestamp: metric.timestamp, step: metric.step };
}

export function fromWireRun(run: Schemas["Run"]): Run {
  return {
    info: run.info,
    data: { metrics: run.data.metrics.map(fromWireMetric), params: run.data.params, tags: run.data.tags },
  };
}
