import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export type Revision = "a" | "b" | "c";
export const REVISIONS: readonly Revision[] = ["a", "b", "c"];

/** Absolute path of a revision's hand-written OpenAPI file. */
export function specFile(revision: Revision): string {
  return require.resolve(`@tracker/spec/rev-${revision}.yaml`);
}

/** Absolute path of a revision's bundled (standalone) document, built by `pnpm build`. */
export function bundledSpecFile(revision: Revision, format: "json" | "yaml" = "json"): string {
  return require.resolve(`@tracker/spec/dist/rev-${revision}.${format}`);
}
