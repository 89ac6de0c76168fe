import { randomBytes } from "node:crypto";
import type { Knex } from "knex";
import type { DatasetInputRecord, DatasetRecord, KeyValue } from "../domain/records.js";

/** SQL for datasets and run inputs (db/migrations/0004_aliases_datasets.ts). */

interface DatasetRow {
  dataset_uuid: string;
  experiment_id: number;
  name: string;
  digest: string;
  source_type: string;
  source: string;
  schema: string | null;
  profile: string | null;
}

/**
 * The id of the experiment's dataset with this name and digest, stored now if it was not: the
 * unique constraint decides between concurrent writers, and the first stored copy is kept.
 */
export async function ensureDataset(db: Knex, experimentId: number, dataset: DatasetRecord): Promise<string> {
  await db("datasets")
    .insert({
      dataset_uuid: randomBytes(16).toString("hex"),
      experiment_id: experimentId,
      name: dataset.name,
      digest: dataset.digest,
      source_type: dataset.sourceType,
      source: dataset.source,
      schema: dataset.schema ?? null,
      profile: dataset.profile ?? null,
    })
    .onConflict(["experiment_id", "name", "digest"])
    .ignore();
  const row = (await db("datasets")
    .select("dataset_uuid")
    .where({ experiment_id: experimentId, name: dataset.name, digest: dataset.digest })
    .first()) as { dataset_uuid: string } | undefined;
  if (!row) throw new Error("dataset row vanished after insert");
  return row.dataset_uuid;
}

/** Makes the dataset an input of the run with these tags; false (and nothing written) when it already was one. */
export async function addRunInput(
  db: Knex,
  runId: string,
  datasetId: string,
  tags: readonly KeyValue[],
): Promise<boolean> {
  const inserted = await db("run_inputs")
    .insert({ run_uuid: runId, dataset_uuid: datasetId })
    .onConflict(["run_uuid", "dataset_uuid"])
    .ignore()
    .returning("run_uuid");
  if (inserted.length === 0) return false;
  const unique = [...new Map(tags.map((t) => [t.key, t])).values()];
  if (unique.length > 0) {
    await db("run_input_tags").insert(
      unique.map((t) => ({ run_uuid: runId, dataset_uuid: datasetId, key: t.key, value: t.value })),
    );
  }
  return true;
}

/** The inputs of the given runs, by run id, each list in the order the datasets were first logged. */
export async function runInputsOf(db: Knex, runIds: readonly string[]): Promise<Map<string, DatasetInputRecord[]>> {
  const out = new Map<string, DatasetInputRecord[]>();
  if (runIds.length === 0) return out;
  const rows = (await db("run_inputs as i")
    .join("datasets as d", "d.dataset_uuid", "i.dataset_uuid")
    .select("i.run_uuid", "d.*")
    .whereIn("i.run_uuid", runIds as string[])
    .orderBy("i.position")) as Array<DatasetRow & { run_uuid: string }>;
  if (rows.length === 0) return out;
  const tagRows = (await db("run_input_tags")
    .select("run_uuid", "dataset_uuid", "key", "value")
    .whereIn("run_uuid", runIds as string[])
    .orderByRaw(`key COLLATE "C"`)) as Array<{ run_uuid: string; dataset_uuid: string; key: string; value: string }>;
  const tags = new Map<string, KeyValue[]>();
  for (const t of tagRows) {
    const k = `${t.run_uuid}/${t.dataset_uuid}`;
    tags.set(k, [...(tags.get(k) ?? []), { key: t.key, value: t.value }]);
  }
  for (const row of rows) {
    const list = out.get(row.run_uuid) ?? [];
    list.push({
      tags: tags.get(`${row.run_uuid}/${row.dataset_uuid}`) ?? [],
      dataset: {
        name: row.name,
        digest: row.digest,
        sourceType: row.source_type,
        source: row.source,
        ...(row.schema === null ? {} : { schema: row.schema }),
        ...(row.profile === null ? {} : { profile: row.profile }),
      },
    });
    out.set(row.run_uuid, list);
  }
  return out;
}

/** One (experiment, dataset name, digest, input context) of experiments/search-datasets. */
export interface DatasetSummaryRow {
  experiment_id: number;
  name: string;
  digest: string;
  context: string | null;
}

/**
 * The distinct (experiment, name, digest, context tag) of the inputs of the runs of experiments,
 * ordered, at most `limit`.
 */
export async function datasetSummaries(
  db: Knex,
  experimentIds: readonly number[],
  contextTag: string,
  limit: number,
): Promise<DatasetSummaryRow[]> {
  const result = await db.raw(
    `SELECT DISTINCT d.experiment_id, d.name, d.digest, t.value AS context
       FROM datasets d
       JOIN run_inputs i ON i.dataset_uuid = d.dataset_uuid
       LEFT JOIN run_input_tags t ON t.run_uuid = i.run_uuid AND t.dataset_uuid = i.dataset_uuid AND t.key = ?
      WHERE d.experiment_id IN (${experimentIds.map(() => "?").join(", ")})
      ORDER BY d.experiment_id, d.name, d.digest, context NULLS FIRST
      LIMIT ?`,
    [contextTag, ...experimentIds, limit],
  );
  return (result.rows as DatasetSummaryRow[]).map((row) => ({ ...row, experiment_id: Number(row.experiment_id) }));
}
