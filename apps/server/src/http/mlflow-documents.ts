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

function dropValueBounds(node: Json): void {
  if (Array.isArray(node)) {
    node.forEach(dropValueBounds);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const properties = node.properties;
  if (properties && typeof properties === "object" && !Array.isArray(properties)) {
    const value = properties.value;
    if (value && typeof value === "object" && !Array.isArray(value)) delete value.maxLength;
  }
  for (const child of Object.values(node)) dropValueBounds(child);
}

/** A fresh copy of the document, relaxed for MLflow 2.x's value limits. */
export function mlflowDocument(spec: SpecName): Record<string, Json> {
  const document = JSON.parse(fs.readFileSync(specPath(spec), "utf8")) as Record<string, Json>;
  dropValueBounds(document);
  const schemas = (document.components as Record<string, Record<string, Record<string, Json>>> | undefined)?.schemas;
  if (schemas?.TagValue) delete schemas.TagValue.maxLength;
  return document;
}
