import { createRequire } from "node:module";
import path from "node:path";

/** The three revisions of the API. */
export type Revision = "a" | "b" | "c";

/**
 * Order in which the per-revision validators see a request. Revision C owns `2.0/tracker` and the
 * registry paths; B and A share `2.0/preview/tracker`, where B (the superset) answers first and A
 * only gets what B lacks (artifacts/get). See design.md, "Server architecture".
 */
export const REVISION_ORDER: readonly Revision[] = ["c", "b", "a"];

const require = createRequire(import.meta.url);

/**
 * Absolute path of a revision's bundled OpenAPI document (built from spec/rev-*.yaml by the
 * @tracker/spec package's build); the validator cannot follow the cross-file $refs itself.
 */
export function specPath(revision: Revision): string {
  return require.resolve(`@tracker/spec/dist/rev-${revision}.json`);
}

/** Folder of the rendered API reference pages (built by @tracker/api-docs into its dist/). */
export function docsDirectory(): string {
  return path.dirname(require.resolve("@tracker/api-docs/dist/index.html"));
}
