import type { Knex } from "knex";
import type { KeyValue } from "../domain/records.js";
import { inTransaction, runStatement, type Binding } from "./prepared.js";
import type { RunRow } from "./rows.js";

/**
 * Single-row writes to a run, each one statement (one round trip, no BEGIN/COMMIT: a statement is
 * atomic by itself). Each starts from the run's row locked FOR SHARE, as the transactions they
 * replace did: a concurrent runs/delete (an UPDATE of that row) waits until the write has
 * committed, and the write happens only when the run is active (the `WHERE` of every
 * data-modifying part). The statement returns the run's lifecycle stage (no row: no such run) so
 * the caller picks the error, as for metrics (store/runs.ts insertMetrics). Data-modifying CTEs
 * run to completion whether or not the final SELECT reads them.
 */

const RUN_LOCKED = "run AS (SELECT lifecycle_stage FROM runs WHERE run_uuid = ? FOR SHARE)";
const RUN_ACTIVE = "EXISTS (SELECT 1 FROM run WHERE lifecycle_stage = 'active')";

/** The run's lifecycle stage as the statement saw it; undefined when there is no such run. */
type Stage = string | undefined;

async function firstRow<R>(db: Knex, sql: string, bindings: Binding[], name: string): Promise<R | undefined> {
  const result = await runStatement(db, sql, bindings, name);
  return (result.rows as R[])[0];
}

/** Sets a run's tag; with `renameTo`, also the run's name (the run-name system tag). */
export async function setRunTag(db: Knex, runId: string, tag: KeyValue, renameTo?: string): Promise<Stage> {
  const rename = renameTo !== undefined;
  const row = await firstRow<{ lifecycle_stage: string }>(
    db,
    `WITH ${RUN_LOCKED},
       tagged AS (
         INSERT INTO tags (run_uuid, key, value) SELECT ?, ?, ? WHERE ${RUN_ACTIVE}
         ON CONFLICT (run_uuid, key) DO UPDATE SET value = excluded.value
       )${rename ? `,\n       renamed AS (UPDATE runs SET run_name = ? WHERE run_uuid = ? AND ${RUN_ACTIVE})` : ""}
       SELECT lifecycle_stage FROM run`,
    [runId, runId, tag.key, tag.value, ...(rename ? [renameTo, runId] : [])],
    rename ? "tracker_set_tag_rename" : "tracker_set_tag",
  );
  return row?.lifecycle_stage;
}

/** Deletes a run's tag; `removed` tells whether there was one. */
export async function deleteRunTag(db: Knex, runId: string, key: string): Promise<{ stage: Stage; removed: boolean }> {
  const row = await firstRow<{ lifecycle_stage: string; removed: boolean }>(
    db,
    `WITH ${RUN_LOCKED},
       removed AS (DELETE FROM tags WHERE run_uuid = ? AND key = ? AND ${RUN_ACTIVE} RETURNING 1)
       SELECT lifecycle_stage, EXISTS (SELECT 1 FROM removed) AS removed FROM run`,
    [runId, runId, key],
    "tracker_delete_tag",
  );
  return { stage: row?.lifecycle_stage, removed: row?.removed === true };
}

/**
 * Logs a param unless the key is there already; `stored` is the value stored under the key after
 * the statement (the given one when it was inserted), for the caller to tell an identical re-log
 * from an attempt to change the value. A second statement only when another request inserted the
 * same key concurrently: its row is committed but not in this statement's snapshot.
 */
export async function logRunParam(
  db: Knex,
  runId: string,
  param: KeyValue,
): Promise<{ stage: Stage; stored: string | undefined }> {
  const row = await firstRow<{ lifecycle_stage: string; stored: string | null }>(
    db,
    `WITH ${RUN_LOCKED},
       added AS (
         INSERT INTO params (run_uuid, key, value) SELECT ?, ?, ? WHERE ${RUN_ACTIVE}
         ON CONFLICT (run_uuid, key) DO NOTHING RETURNING value
       )
       SELECT lifecycle_stage, COALESCE((SELECT value FROM added), (SELECT value FROM params WHERE run_uuid = ? AND key = ?)) AS stored FROM run`,
    [runId, runId, param.key, param.value, runId, param.key],
    "tracker_log_param",
  );
  if (row === undefined) return { stage: undefined, stored: undefined };
  if (row.stored !== null || row.lifecycle_stage !== "active")
    return { stage: row.lifecycle_stage, stored: row.stored ?? undefined };
  const concurrent = await db("params").select("value").where({ run_uuid: runId, key: param.key }).first();
  return { stage: row.lifecycle_stage, stored: (concurrent as { value: string } | undefined)?.value };
}

/**
 * The text of the error a param batch's statement raises when another request inserted one of
 * its keys concurrently (see logRunParams): a cast of this text to an integer, which PostgreSQL
 * refuses (22P02). Statement-level atomicity then undoes every row the statement wrote.
 */
const CONCURRENT_PARAM = "tracker: a param key was logged concurrently";

const isConcurrentParam = (err: unknown): boolean =>
  (err as { code?: unknown } | null)?.code === "22P02" &&
  String((err as { message?: unknown }).message).includes(CONCURRENT_PARAM);

type ParamRow = { lifecycle_stage: string; key: string; stored: string | null };

/** A param batch as a statement's rows: two array parameters (keys, values), whatever its size. */
const GIVEN_PARAMS = "given (key, value) AS (SELECT * FROM unnest(CAST(? AS text[]), CAST(? AS text[])))";

/** logRunParams' statement: one prepared statement serves every batch size. */
const LOG_PARAMS_SQL = `WITH ${RUN_LOCKED},
     ${GIVEN_PARAMS},
     stored AS (SELECT p.key, p.value FROM params p JOIN given g ON g.key = p.key WHERE p.run_uuid = ?),
     writable AS (
       SELECT ${RUN_ACTIVE} AND NOT EXISTS (SELECT 1 FROM stored s JOIN given g ON g.key = s.key WHERE g.value <> s.value) AS ok
     ),
     added AS (
       INSERT INTO params (run_uuid, key, value) SELECT ?, g.key, g.value FROM given g WHERE (SELECT ok FROM writable)
       ON CONFLICT (run_uuid, key) DO NOTHING RETURNING key, value
     )
     SELECT r.lifecycle_stage, g.key, COALESCE(a.value, s.value) AS stored,
            CASE WHEN a.key IS NULL AND s.key IS NULL AND (SELECT ok FROM writable)
                 THEN CAST(? || g.key AS integer) END AS concurrent
       FROM run r CROSS JOIN given g LEFT JOIN added a ON a.key = g.key LEFT JOIN stored s ON s.key = g.key`;

/** Stored values by key from a param batch statement's rows, and the run's stage. */
function storedOf(rows: ParamRow[]): { stage: Stage; stored: Map<string, string> } {
  const stored = new Map<string, string>();
  for (const r of rows) if (r.stored !== null) stored.set(r.key, r.stored);
  return { stage: rows[0]?.lifecycle_stage, stored };
}

/**
 * Logs params unless their keys are there already, all or nothing. One statement, without
 * BEGIN/COMMIT: it locks the run (FOR SHARE), reads the values stored under the given keys, and
 * inserts the params whose keys are new only when the run is active and no stored value differs
 * from the given one (so a refused batch writes nothing); it gives the value stored under each
 * key. A key inserted by another request after the statement's snapshot is skipped by ON
 * CONFLICT and seen nowhere: the statement then fails on purpose (nothing written), and the
 * batch runs again in a transaction (logRunParamsInTransaction), which reads the committed value
 * before deciding. `check` sees the stored values; when it throws, nothing has been written.
 * Params are distinct by key.
 */
export async function logRunParams(
  db: Knex,
  runId: string,
  params: KeyValue[],
  check: (stage: Stage, stored: Map<string, string>) => void,
): Promise<void> {
  const bindings = [runId, params.map((p) => p.key), params.map((p) => p.value), runId, runId, CONCURRENT_PARAM];
  let rows: ParamRow[];
  try {
    rows = (await runStatement(db, LOG_PARAMS_SQL, bindings, "tracker_log_param_batch")).rows as ParamRow[];
  } catch (err) {
    if (!isConcurrentParam(err)) throw err;
    return logRunParamsInTransaction(db, runId, params, check);
  }
  const { stage, stored } = storedOf(rows);
  check(stage, stored);
}

/**
 * logRunParams in one transaction, for the rare batch whose keys another request inserted
 * concurrently: the first statement inserts the new keys, a second reads the values committed
 * meanwhile, and `check` runs before COMMIT (when it throws, the transaction is rolled back).
 */
async function logRunParamsInTransaction(
  db: Knex,
  runId: string,
  params: KeyValue[],
  check: (stage: Stage, stored: Map<string, string>) => void,
): Promise<void> {
  const keys = params.map((p) => p.key);
  const sql = `WITH ${RUN_LOCKED},
     ${GIVEN_PARAMS},
     added AS (
       INSERT INTO params (run_uuid, key, value) SELECT ?, g.key, g.value FROM given g WHERE ${RUN_ACTIVE}
       ON CONFLICT (run_uuid, key) DO NOTHING RETURNING key, value
     )
     SELECT r.lifecycle_stage, g.key, COALESCE(a.value, p.value) AS stored
       FROM run r CROSS JOIN given g LEFT JOIN added a ON a.key = g.key
       LEFT JOIN params p ON p.run_uuid = ? AND p.key = g.key`;
  const bindings = [runId, keys, params.map((p) => p.value), runId, runId];
  await inTransaction(db, async (run) => {
    const { stage, stored } = storedOf((await run(sql, bindings)) as ParamRow[]);
    if (stage === "active" && stored.size < params.length) {
      const concurrent = (await run(
        "SELECT key, value FROM params WHERE run_uuid = ? AND key = ANY(CAST(? AS text[]))",
        [runId, keys],
      )) as KeyValue[];
      for (const r of concurrent) stored.set(r.key, r.value);
    }
    check(stage, stored);
  });
}

/** A run row with its tags aggregated as a JSON array ordered by key. */
export interface RunRowWithTags extends RunRow {
  tags: Array<[string, string]>;
}

/**
 * Updates an active run's status, end time and name (each only when given) and, with a name, its
 * run-name tag; returns the updated row with its tags, or the stage that prevented the update. No
 * lock before the UPDATE: the UPDATE locks the row itself and re-checks `lifecycle_stage` after
 * waiting for a concurrent writer. A run deleted between this statement's snapshot and its
 * UPDATE gives no row and the stage read again by a second statement (a rare race only).
 */
export async function updateRunFields(
  db: Knex,
  runId: string,
  changes: { status?: string; endTime?: number; runName?: string },
  runNameTag: string,
): Promise<{ stage: Stage; row?: RunRowWithTags }> {
  const rows = await runStatement(
    db,
    `WITH updated AS (
         UPDATE runs SET status = COALESCE(CAST(? AS text), status), end_time = COALESCE(CAST(? AS bigint), end_time),
                         run_name = COALESCE(CAST(? AS text), run_name)
          WHERE run_uuid = ? AND lifecycle_stage = 'active' RETURNING *
       ),
       named AS (
         INSERT INTO tags (run_uuid, key, value) SELECT run_uuid, CAST(? AS text), run_name FROM updated WHERE CAST(? AS text) IS NOT NULL
         ON CONFLICT (run_uuid, key) DO UPDATE SET value = excluded.value
       )
       SELECT s.lifecycle_stage AS stage, u.*,
              (SELECT COALESCE(json_agg(json_build_array(t.key, t.value) ORDER BY t.key), '[]') FROM tags t WHERE t.run_uuid = s.run_uuid) AS tags
         FROM runs s LEFT JOIN updated u ON true WHERE s.run_uuid = ?`,
    [
      changes.status ?? null,
      changes.endTime ?? null,
      changes.runName ?? null,
      runId,
      runNameTag,
      changes.runName ?? null,
      runId,
    ],
    "tracker_update_run",
  );
  const row = (rows.rows as Array<RunRowWithTags & { stage: string }>)[0];
  if (row === undefined) return { stage: undefined };
  if (row.run_uuid !== null) return { stage: "active", row };
  if (row.stage !== "active") return { stage: row.stage };
  const now = await db("runs").select("lifecycle_stage").where({ run_uuid: runId }).first();
  return { stage: (now as { lifecycle_stage: string } | undefined)?.lifecycle_stage ?? undefined };
}

/** Runs created with up to this many tags take a prepared statement (one per tag count). */
const PREPARED_CREATE_TAGS = 16;

/** A new run's row, without its artifact URI (made from the experiment's artifact location). */
export type NewRunRow = Omit<RunRow, "artifact_uri" | "lifecycle_stage" | "end_time" | "status">;

/**
 * Creates a run with its tags in an active experiment, which stays locked (FOR SHARE) until the
 * run is in (a concurrent experiment delete waits and then deletes the new run with it). The
 * artifact URI is the experiment's artifact location (trailing slashes dropped) followed by
 * `artifactSuffix`. Returns the experiment's stage (undefined: no such experiment) and, when
 * created, the run's row with its tags ordered by key.
 */
export async function insertRunWithTags(
  db: Knex,
  row: NewRunRow,
  artifactSuffix: string,
  tags: KeyValue[],
): Promise<{ experimentStage: Stage; row?: RunRowWithTags }> {
  const unique = [...new Map(tags.map((t) => [t.key, t.value]))];
  const given =
    unique.length === 0
      ? "SELECT CAST(NULL AS text) AS key, CAST(NULL AS text) AS value WHERE false"
      : `VALUES ${unique.map(() => "(CAST(? AS text), CAST(? AS text))").join(", ")}`;
  const result = await runStatement(
    db,
    `WITH experiment AS (SELECT lifecycle_stage, artifact_location FROM experiments WHERE experiment_id = ? FOR SHARE),
     given (key, value) AS (${given}),
     created AS (
       INSERT INTO runs (run_uuid, experiment_id, run_name, user_id, status, start_time, end_time, artifact_uri, lifecycle_stage)
       SELECT ?, ?, ?, ?, 'RUNNING', ?, NULL, regexp_replace(artifact_location, '/+$', '') || ?, 'active'
         FROM experiment WHERE lifecycle_stage = 'active'
       RETURNING *
     ),
     tagged AS (INSERT INTO tags (run_uuid, key, value) SELECT c.run_uuid, g.key, g.value FROM created c CROSS JOIN given g)
     SELECT e.lifecycle_stage AS experiment_stage, c.*,
            (SELECT COALESCE(json_agg(json_build_array(g.key, g.value) ORDER BY g.key), '[]') FROM given g) AS tags
       FROM experiment e LEFT JOIN created c ON true`,
    [
      row.experiment_id,
      ...unique.flat(),
      row.run_uuid,
      row.experiment_id,
      row.run_name,
      row.user_id,
      row.start_time,
      artifactSuffix,
    ],
    // One prepared statement per number of tags (a run is created with a few system tags).
    unique.length <= PREPARED_CREATE_TAGS ? `tracker_create_run_${unique.length}` : undefined,
  );
  const out = (result.rows as Array<RunRowWithTags & { experiment_stage: string }>)[0];
  if (out === undefined) return { experimentStage: undefined };
  return out.run_uuid === null
    ? { experimentStage: out.experiment_stage }
    : { experimentStage: out.experiment_stage, row: out };
}
