import type { Services } from "./services.js";
import * as store from "../store/logged-models.js";

/** What the registry needs of MLflow 3's logged models (kept apart from logged-models.ts, which reads artifacts). */

/**
 * What a model version registered from `models:/<id>` takes from the model: its run and the
 * location of its files. Deleted models resolve too (MLflow's store looks them up without a
 * lifecycle check).
 */
export async function loggedModelSource(
  services: Services,
  id: string,
): Promise<{ runId: string; storageLocation: string } | undefined> {
  const row = await store.loggedModelSource(services.knex, id);
  return row && { runId: row.source_run_id, storageLocation: row.artifact_location };
}

/** The tag on a logged model that lists the registry versions made from it (MLflow 3). */
export const MODEL_VERSIONS_TAG = "mlflow.modelVersions";

/**
 * Appends `{name, version}` to the model's `mlflow.modelVersions` tag unless an identical entry is
 * there (as MLflow's server does after model-versions/create with a model_id); the version is a
 * JSON number, as MLflow's server writes it. A model that does not exist is left alone.
 */
export async function recordModelVersion(services: Services, id: string, name: string, version: number): Promise<void> {
  await store.updateLoggedModelTag(services.knex, id, MODEL_VERSIONS_TAG, (current) => {
    let entries: unknown[] = [];
    if (current !== undefined) {
      try {
        const parsed: unknown = JSON.parse(current);
        if (Array.isArray(parsed)) entries = parsed;
      } catch {
        entries = [];
      }
    }
    const listed = entries.some(
      (e) =>
        typeof e === "object" &&
        e !== null &&
        (e as { name?: unknown }).name === name &&
        (e as { version?: unknown }).version === version,
    );
    return listed ? undefined : JSON.stringify([...entries, { name, version }]);
  });
}
