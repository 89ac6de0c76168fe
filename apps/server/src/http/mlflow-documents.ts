import fs from "node:fs";
import { specPath, type SpecName } from "./revisions.js";

/**
 * The documents requests through MLflow's paths are validated against: a revision's bundled
 * document with the length bounds of param and tag values removed (every `value` property and the
 * shared `TagValue` schema). Those values are then bounded by the core alone, with MLflow 2.x's
 * limits (core/limits.ts, MLFLOW_RUN_VALUE_LIMITS); revision C's documented limits keep applying
 * to the `tracker` paths. The spec files themselves stay as the interface defines them.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Removes the bounds below `node`; returns how many it removed. */
function dropValueBounds(node: Json): number {
  if (Array.isArray(node)) return node.reduce<number>((dropped, item) => dropped + dropValueBounds(item), 0);
  if (node === null || typeof node !== "object") return 0;
  let dropped = 0;
  const properties = node.properties;
  if (properties && typeof properties === "object" && !Array.isArray(properties)) {
    const value = properties.value;
    if (value && typeof value === "object" && !Array.isArray(value) && "maxLength" in value) {
      delete value.maxLength;
      dropped++;
    }
  }
  for (const child of Object.values(node)) dropped += dropValueBounds(child);
  return dropped;
}

/** The document relaxed for MLflow 2.x's value limits, and how many bounds that removed. */
function relaxed(spec: SpecName): { document: Record<string, Json>; dropped: number } {
  const document = JSON.parse(fs.readFileSync(specPath(spec), "utf8")) as Record<string, Json>;
  let dropped = dropValueBounds(document);
  const schemas = (document.components as Record<string, Record<string, Record<string, Json>>> | undefined)?.schemas;
  if (schemas?.TagValue && "maxLength" in schemas.TagValue) {
    delete schemas.TagValue.maxLength;
    dropped++;
  }
  return { document, dropped };
}

/** A fresh copy of the document, relaxed for MLflow 2.x's value limits. */
export function mlflowDocument(spec: SpecName): Record<string, Json> {
  return relaxed(spec).document;
}

/**
 * Whether MLflow's paths need a document of their own: false when the document bounds no param or
 * tag value (tracker's extensions, users and permissions), so one validator serves both kinds of
 * path.
 */
export function mlflowDocumentDiffers(spec: SpecName): boolean {
  return relaxed(spec).dropped > 0;
}
