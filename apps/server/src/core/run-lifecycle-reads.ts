import DataLoader from "dataloader";
import type { Knex } from "knex";
import { runLifecycleStages } from "../store/runs.js";

/**
 * Lifecycle reads of runs shared by concurrent requests: every upload to the artifact service asks
 * the database whether its run is still active (no per-process memo: another server may delete the
 * run at any moment). Checks that arrive while one read is running wait for it to end and then go
 * together in one statement (`run_uuid = ANY(...)`); with nothing running, the checks that arrive
 * in the same turn of the event loop go together. Every check is answered by a statement that
 * started after the check was asked, so no answer is older than its request; a hundred parallel
 * uploads cost a few statements instead of a hundred (on PGlite, which runs in the server's own
 * thread, each statement cost about a millisecond of the server's CPU).
 */

type StageLoader = DataLoader<string, string | undefined>;

const loaders = new WeakMap<Knex, StageLoader>();

function loaderFor(knex: Knex): StageLoader {
  let loader = loaders.get(knex);
  if (!loader) {
    let running: Promise<unknown> | undefined;
    loader = new DataLoader<string, string | undefined>(
      async (ids) => {
        const read = runLifecycleStages(knex, ids);
        const settled = read.then(
          () => undefined,
          () => undefined,
        );
        running = settled;
        void settled.then(() => {
          if (running === settled) running = undefined;
        });
        const stages = await read;
        return ids.map((id) => stages.get(id));
      },
      {
        // Never a cached answer: each batch reads the database anew.
        cache: false,
        maxBatchSize: 1000,
        batchScheduleFn: (dispatch) => {
          if (running) void running.then(dispatch);
          else setImmediate(dispatch);
        },
      },
    );
    loaders.set(knex, loader);
  }
  return loader;
}

/** The run's lifecycle stage (`active`, `deleted`), or undefined when there is no such run. */
export function currentLifecycleStage(knex: Knex, runId: string): Promise<string | undefined> {
  return loaderFor(knex).load(runId);
}
