import { swapTagNamespace, swapTagsNamespace } from "../domain/system-tags.js";
import type { FilterAst } from "../search/index.js";
import { renameFilterTags } from "../search/tag-keys.js";
import { tagNamespaceOf, type Services } from "./services.js";

/**
 * Tags of experiments, registered models, model versions and logged models between a request's
 * system-tag namespace and storage, as run tags (see domain/system-tags.ts): `mlflow.note.content`
 * written through MLflow's paths reads as `tracker.note.content` through tracker's, and back. The
 * swap is its own inverse, so one function serves both directions.
 */

/** A tag key from a request as stored, or a stored key as the request's namespace shows it. */
export const swapRequestTagKey = (services: Services, key: string): string =>
  swapTagNamespace(tagNamespaceOf(services), key);

/** Tags from a request as stored, or stored tags as the request's namespace shows them. */
export const swapRequestTags = <T extends { key: string }>(services: Services, tags: readonly T[]): T[] =>
  swapTagsNamespace(tagNamespaceOf(services), tags);

/** A search filter with its `tags.<key>` comparisons on the stored keys. */
export const storedTagFilter = (services: Services, ast: FilterAst | undefined): FilterAst | undefined =>
  ast && renameFilterTags(ast, (key) => swapRequestTagKey(services, key));
