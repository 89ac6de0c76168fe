import type { Knex } from "knex";

/** SQL for the links between runs and logged models (db/migrations/0008_run_model_links.ts). */

export type LinkDirection = "input" | "output";

export interface ModelOutputRecord {
  modelId: string;
  step: number;
}

export interface ModelInputRecord {
  modelId: string;
}

/** A run's model links, each list in the order the links were logged. */
export interface RunModelLinks {
  inputs: ModelInputRecord[];
  outputs: ModelOutputRecord[];
}

/** Adds the run's outputs; a model that already is an output of the run fails with a unique violation. */
export async function insertModelOutputs(
  db: Knex,
  runId: string,
  outputs: readonly ModelOutputRecord[],
): Promise<void> {
  if (outputs.length === 0) return;
  await db("run_model_links").insert(
    outputs.map((o) => ({ run_uuid: runId, direction: "output", model_id: o.modelId, step: o.step })),
  );
}

/** Adds the run's inputs; a model that already is an input of the run is left as it is. */
export async function insertModelInputs(db: Knex, runId: string, modelIds: readonly string[]): Promise<void> {
  if (modelIds.length === 0) return;
  await db("run_model_links")
    .insert([...new Set(modelIds)].map((modelId) => ({ run_uuid: runId, direction: "input", model_id: modelId })))
    .onConflict(["run_uuid", "direction", "model_id"])
    .ignore();
}

/** The model links of the given runs, by run id (runs without links are absent). */
export async function modelLinksOf(db: Knex, runIds: readonly string[]): Promise<Map<string, RunModelLinks>> {
  const out = new Map<string, RunModelLinks>();
  if (runIds.length === 0) return out;
  const rows = (await db("run_model_links")
    .select("run_uuid", "direction", "model_id", "step")
    .whereIn("run_uuid", runIds as string[])
    .orderBy("position")) as Array<{
    run_uuid: string;
    direction: LinkDirection;
    model_id: string;
    step: number | null;
  }>;
  for (const row of rows) {
    const links = out.get(row.run_uuid) ?? { inputs: [], outputs: [] };
    if (row.direction === "output") links.outputs.push({ modelId: row.model_id, step: Number(row.step) });
    else links.inputs.push({ modelId: row.model_id });
    out.set(row.run_uuid, links);
  }
  return out;
}
