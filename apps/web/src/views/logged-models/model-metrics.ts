// A logged model's metrics come as every point logged with its id: the table shows each key's latest.
import type { LoggedModel } from "@tracker-ml/client";
import { historyValues, type MetricSummary } from "../../components/metric-summary-table";

type Point = NonNullable<LoggedModel["data"]["metrics"]>[number];

/** The latest point of each key (highest step, then latest timestamp), keys in order. */
export function latestMetrics(points: readonly Point[] | undefined): Point[] {
  const latest = new Map<string, Point>();
  for (const p of points ?? []) {
    const seen = latest.get(p.key);
    if (!seen || p.step > seen.step || (p.step === seen.step && p.timestamp >= seen.timestamp)) latest.set(p.key, p);
  }
  return [...latest.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/** One summary per key (its latest point, its history in step order), keys in order. */
export function metricSummaries(points: readonly Point[] | undefined): MetricSummary[] {
  return latestMetrics(points).map((latest) => ({
    key: latest.key,
    latest: latest.value,
    step: latest.step,
    history: historyValues((points ?? []).filter((p) => p.key === latest.key)),
  }));
}

/** "READY" from "LOGGED_MODEL_READY", for badges. */
export function statusLabel(status: string): string {
  return status.replace(/^LOGGED_MODEL_/, "");
}

/** The logged model id a registry source `models:/m-…` names, if it names one. */
export function loggedModelIdOf(source: string | undefined): string | undefined {
  return /^models:\/(m-[0-9a-f]{32})(?:\/|$)/.exec(source ?? "")?.[1];
}
