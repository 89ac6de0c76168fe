/**
 * Names of the system tags, under the configured namespace (`tracker.` by default, `mlflow.` for
 * drop-in use), exactly as MLflow's clients read and write them.
 */
export function systemTags(namespace: string) {
  return {
    user: `${namespace}.user`,
    runName: `${namespace}.runName`,
    sourceName: `${namespace}.source.name`,
    sourceType: `${namespace}.source.type`,
    sourceVersion: `${namespace}.source.git.commit`,
    entryPoint: `${namespace}.project.entryPoint`,
    parentRunId: `${namespace}.parentRunId`,
    logModelHistory: `${namespace}.log-model.history`,
  } as const;
}

export type SystemTags = ReturnType<typeof systemTags>;

/** The input tag that says what a run used a dataset for (`training`, `validation`, ...); MLflow's name, whatever the namespace. */
export const DATASET_CONTEXT_TAG = "mlflow.data.context";
