/**
 * System tags (run name, user, source, parent run, note, logged-model history, ...).
 *
 * They are stored once, under MLflow's names (`mlflow.user`, `mlflow.runName`, ...), whatever path
 * wrote them. Each request presents them under its own namespace: `mlflow.` on MLflow's paths,
 * `tracker.` on tracker's (or the one `--namespace` on every path). A key is translated by
 * swapping the two prefixes, `<namespace>.` and `mlflow.`, on the way in and again on the way out:
 * the swap is its own inverse, so every key a client writes reads back unchanged through the same
 * path, and no two keys ever meet in storage.
 */

/** The prefix system tags are stored under. */
export const STORED_NAMESPACE = "mlflow";

/** Names of the system tags under a namespace prefix, exactly as MLflow's clients read and write them. */
export function systemTags(namespace: string = STORED_NAMESPACE) {
  return {
    user: `${namespace}.user`,
    runName: `${namespace}.runName`,
    sourceName: `${namespace}.source.name`,
    sourceType: `${namespace}.source.type`,
    sourceVersion: `${namespace}.source.git.commit`,
    entryPoint: `${namespace}.project.entryPoint`,
    parentRunId: `${namespace}.parentRunId`,
    note: `${namespace}.note.content`,
    logModelHistory: `${namespace}.log-model.history`,
  } as const;
}

export type SystemTags = ReturnType<typeof systemTags>;

/** The input tag that says what a run used a dataset for (`training`, `validation`, ...); MLflow's name, whatever the namespace. */
export const DATASET_CONTEXT_TAG = "mlflow.data.context";

/**
 * The tag that marks a registered model (and its versions) as a prompt of MLflow 3's prompt
 * registry, as stored; models without it are ordinary models.
 */
export const PROMPT_MARKER_TAG = "mlflow.prompt.is_prompt";

/** The system tags as stored. */
export const STORED_TAGS: SystemTags = systemTags(STORED_NAMESPACE);

/**
 * A tag key between a request's namespace and storage, in either direction: `<namespace>.x` and
 * `mlflow.x` trade places, other keys stay. The identity when the namespace is `mlflow`.
 */
export function swapTagNamespace(namespace: string, key: string): string {
  if (namespace === STORED_NAMESPACE) return key;
  const presented = `${namespace}.`;
  const stored = `${STORED_NAMESPACE}.`;
  if (key.startsWith(presented)) return stored + key.slice(presented.length);
  if (key.startsWith(stored)) return presented + key.slice(stored.length);
  return key;
}

/** Tags with their keys swapped between a namespace and storage (see swapTagNamespace). */
export function swapTagsNamespace<T extends { key: string }>(namespace: string, tags: readonly T[]): T[] {
  if (namespace === STORED_NAMESPACE) return [...tags];
  return tags.map((tag) => ({ ...tag, key: swapTagNamespace(namespace, tag.key) }));
}
