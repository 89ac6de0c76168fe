import { createRequire } from "node:module";
import path from "node:path";

/** The three revisions of the API. */
export type Revision = "a" | "b" | "c";

/** Every OpenAPI document the server validates against: the revisions, tracker's extensions and users and permissions. */
export type SpecName = Revision | "ext" | "auth";

/**
 * Order in which the per-document validators see a request. Revision C owns `2.0/tracker` and the
 * registry paths; B and A share `2.0/preview/tracker`, where B (the superset) answers first and A
 * only gets what B lacks (artifacts/get). See design.md, "Server architecture". tracker's own
 * operations (spec/ext.yaml) come last: none of them shares a path with a revision's operation.
 */
export const SPEC_ORDER: readonly SpecName[] = ["c", "b", "a", "ext", "auth"];

/** The revision whose conventions a document's handlers follow: ext operations are shaped as C's. */
export const revisionOf = (spec: SpecName): Revision => (spec === "ext" || spec === "auth" ? "c" : spec);

const require = createRequire(import.meta.url);

/**
 * Absolute path of a document's bundled OpenAPI file (built from spec/*.yaml by the @tracker/spec
 * package's build); the validator cannot follow the cross-file $refs itself.
 */
export function specPath(spec: SpecName): string {
  return require.resolve(`@tracker/spec/dist/${spec === "ext" || spec === "auth" ? spec : `rev-${spec}`}.json`);
}

/** Folder of the rendered API reference pages (built by @tracker/api-docs into its dist/). */
export function docsDirectory(): string {
  return path.dirname(require.resolve("@tracker/api-docs/dist/index.html"));
}
