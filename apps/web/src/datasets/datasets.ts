// Datasets a run used (MLflow's dataset inputs): as rows for the run page, as text for the runs
// table and CSV, and as a runs/search filter clause for the experiment's dataset menu.
import type { DatasetSummary, RunWithInputs } from "@tracker-ml/client";

export interface RunDataset {
  name: string;
  digest: string;
  /** The input's `mlflow.data.context` tag (training, validation, ...), "" when absent. */
  context: string;
  sourceType: string;
  source: string;
}

const CONTEXT_TAG = "mlflow.data.context";

export function runDatasets(run: RunWithInputs): RunDataset[] {
  return (run.inputs?.dataset_inputs ?? []).map((input) => ({
    name: input.dataset?.name ?? "",
    digest: input.dataset?.digest ?? "",
    context: input.tags?.find((t) => t.key === CONTEXT_TAG)?.value ?? "",
    sourceType: input.dataset?.source_type ?? "",
    source: input.dataset?.source ?? "",
  }));
}

/** "train (3f2a91c0) · training": name, short digest, context. */
export function datasetLabel(d: { name: string; digest: string; context?: string }): string {
  const digest = d.digest ? ` (${d.digest.slice(0, 8)})` : "";
  return `${d.name}${digest}${d.context ? ` · ${d.context}` : ""}`;
}

/** The datasets of a run in one cell: labels joined by "; ". */
export function datasetsText(run: RunWithInputs): string {
  return runDatasets(run).map(datasetLabel).join("; ");
}

/** A string literal of the search grammar; undefined for a value holding both quote kinds. */
export function quoteValue(value: string): string | undefined {
  if (!value.includes("'")) return `'${value}'`;
  if (!value.includes('"')) return `"${value}"`;
  return undefined;
}

/** A dataset chosen in the menu, as kept in the URL (`ds`). */
export type DatasetChoice = Pick<DatasetSummary, "name" | "digest" | "context">;

export function encodeDatasetChoice(d: DatasetChoice): string {
  return JSON.stringify([d.name, d.digest, d.context ?? ""]);
}

export function decodeDatasetChoice(text: string | undefined): DatasetChoice | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === "string")) {
      const [name, digest, context] = value as [string, string, string];
      return context ? { name, digest, context } : { name, digest };
    }
  } catch {
    // A mangled URL: no dataset filter.
  }
  return undefined;
}

/** `dataset.name = '…' AND dataset.digest = '…' [AND dataset.context = '…']`, or undefined when a value cannot be quoted. */
export function datasetClause(d: DatasetChoice): string | undefined {
  const parts: Array<[string, string]> = [
    ["name", d.name],
    ["digest", d.digest],
  ];
  if (d.context) parts.push(["context", d.context]);
  const clauses = parts.map(([field, value]) => {
    const literal = quoteValue(value);
    return literal === undefined ? undefined : `dataset.${field} = ${literal}`;
  });
  return clauses.every((c) => c !== undefined) ? clauses.join(" AND ") : undefined;
}

/** The user's filter and the dataset clause, joined with AND. */
export function withDatasetFilter(filter: string, choice: DatasetChoice | undefined): string {
  const clause = choice ? datasetClause(choice) : undefined;
  return [filter.trim(), clause].filter((part) => part).join(" AND ");
}
