// The runs table as a CSV file: every run that matches the table's filter, in its order, with its
// columns (not only the rows loaded so far: the search is paged through to the end).
import type { Run } from "@tracker-ml/client";
import { keyValue, parseKeyColumn } from "./columns";
import type { RunQuery } from "./use-run-pages";
import { api } from "../../api/client";

export interface CsvColumn {
  header: string;
  value: (run: Run) => string | number | undefined;
}

const tag = (run: Run, key: string) => run.data.tags.find((t) => t.key === key)?.value;
const iso = (ms: number | undefined | null) => (ms ? new Date(ms).toISOString() : "");

/**
 * The file's columns: the run's id, then the table's fixed columns (times as ISO 8601, duration in
 * seconds), then the chosen metric, param and tag columns under their ids (`metrics.acc`), and any
 * extra columns (datasets) given by the caller.
 */
export function csvColumns(
  chosen: readonly string[],
  ns: string,
  experimentName?: (id: string) => string,
  extra: readonly CsvColumn[] = [],
): CsvColumn[] {
  const base: CsvColumn[] = [
    { header: "Run ID", value: (r) => r.info.run_id },
    { header: "Run name", value: (r) => r.info.run_name ?? "" },
    ...(experimentName ? [{ header: "Experiment", value: (r: Run) => experimentName(r.info.experiment_id) }] : []),
    { header: "Status", value: (r) => r.info.status },
    { header: "User", value: (r) => tag(r, `${ns}.user`) ?? r.info.user_id ?? "" },
    { header: "Start time", value: (r) => iso(r.info.start_time) },
    { header: "End time", value: (r) => iso(r.info.end_time) },
    {
      header: "Duration (s)",
      value: (r) => (r.info.start_time && r.info.end_time ? (r.info.end_time - r.info.start_time) / 1000 : ""),
    },
    { header: "Source", value: (r) => tag(r, `${ns}.source.name`) ?? "" },
    { header: "Parent run ID", value: (r) => tag(r, `${ns}.parentRunId`) ?? "" },
  ];
  const keyed = chosen.flatMap((id): CsvColumn[] => {
    const key = parseKeyColumn(id);
    return key ? [{ header: id, value: (r) => keyValue(r, key) }] : [];
  });
  return [...base, ...keyed, ...extra];
}

/**
 * Text cells that a spreadsheet would run as a formula (`=`, `@`, `+`, `-`, tab, carriage return
 * first) get a leading `'`, unless they are a number such as "-0.5" or "+1e-3" (params are text).
 */
export const FORMULA_START = /^(?:[=@\t\r]|[+-](?!(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$))/i;

/** RFC 4180 text (CRLF line ends, quoted where needed) through papaparse, loaded on first use. */
export async function runsToCsv(runs: readonly Run[], columns: readonly CsvColumn[]): Promise<string> {
  const { unparse } = await import("papaparse");
  return unparse(
    {
      fields: columns.map((c) => c.header),
      data: runs.map((run) => columns.map((c) => c.value(run) ?? "")),
    },
    { escapeFormulae: FORMULA_START, newline: "\r\n" },
  );
}

/** Every run of the query, a page of 1000 at a time; `onProgress` is told the count so far. */
export async function fetchAllRuns(query: RunQuery, onProgress: (count: number) => void): Promise<Run[]> {
  const runs: Run[] = [];
  const search = api().searchRunsColumns(query.experimentIds, { ...query, pageSize: 1000 });
  for await (const page of search.pages()) {
    runs.push(...page.items);
    onProgress(runs.length);
  }
  return runs;
}

/** Hands `text` to the browser as a download named `fileName`. */
export function saveFile(text: string, fileName: string, type = "text/csv;charset=utf-8"): void {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** "runs-fraud-detection.csv": the experiments' names made safe for a file name. */
export function csvFileName(experimentNames: readonly string[]): string {
  const stem =
    experimentNames
      .join("+")
      .replace(/[^\w.+-]+/g, "_")
      .slice(0, 80) || "runs";
  return `runs-${stem}.csv`;
}
