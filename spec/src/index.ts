import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The three revisions of the interface. */
export type Revision = "a" | "b" | "c";
export const REVISIONS: readonly Revision[] = ["a", "b", "c"];

/**
 * Every OpenAPI document of the project: the three revisions, tracker's own extensions (ext.yaml)
 * and users and permissions (auth.yaml).
 */
export type SpecName = Revision | "ext" | "auth";
export const SPEC_NAMES: readonly SpecName[] = ["a", "b", "c", "ext", "auth"];

/** File name (without extension) of a document: `rev-a` ... `rev-c`, `ext`, `auth`. */
export function specBaseName(name: SpecName): string {
  return name === "ext" || name === "auth" ? name : `rev-${name}`;
}

/** Absolute path of a document's hand-written OpenAPI file. */
export function specFile(name: SpecName): string {
  return require.resolve(`@tracker/spec/${specBaseName(name)}.yaml`);
}

/** Absolute path of a document's bundled (standalone) form, built by `pnpm build`. */
export function bundledSpecFile(name: SpecName, format: "json" | "yaml" = "json"): string {
  return require.resolve(`@tracker/spec/dist/${specBaseName(name)}.${format}`);
}
