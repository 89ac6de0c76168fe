import { createRequire } from "node:module";

/**
 * express-openapi-validator 5.6 prepares each document it loads (SchemaPreprocessor,
 * dist/middlewares/parsers/schema.preprocessor.js) by resolving every `$ref` it meets with
 * `ajv.getSchema(ref).schema`: Ajv compiles the referenced schema to a validation function only
 * for the preprocessor to read back the schema object it was given, and the preprocessor's Ajv
 * instance is thrown away afterwards. That compilation was the largest part of the validators'
 * start-up. This looks the reference up in Ajv's registry of added schemas instead (where
 * `addSchema` put the very object `getSchema` would return); a reference the registry does not
 * hold goes the validator's own way. The resolved objects, and so the prepared document, are the
 * same (api-document-check.test.ts compares them for every document).
 */

interface SchemaEnvLike {
  schema: unknown;
}

interface AjvRegistry {
  schemas?: Record<string, SchemaEnvLike | undefined>;
  refs?: Record<string, SchemaEnvLike | string | undefined>;
}

interface Preprocessor {
  ajv: AjvRegistry;
  resolvedSchemaCache: Map<string, unknown>;
}

type ResolveSchema = (this: Preprocessor, schema: unknown) => unknown;

interface PreprocessorPrototype {
  resolveSchema: ResolveSchema & { [ORIGINAL]?: ResolveSchema };
}

/** The validator's own resolveSchema, kept on the replacement (for the test that compares them). */
export const ORIGINAL = Symbol.for("tracker.originalResolveSchema");

/** The SchemaPreprocessor class the validator uses. */
export function schemaPreprocessorClass(): { prototype: PreprocessorPrototype } | undefined {
  const require = createRequire(import.meta.url);
  const mod = require("express-openapi-validator/dist/middlewares/parsers/schema.preprocessor.js") as {
    SchemaPreprocessor?: { prototype: PreprocessorPrototype };
  };
  return mod.SchemaPreprocessor;
}

/** The schema Ajv holds under `ref` (following aliases), without compiling it; undefined when it holds none. */
function registered(ajv: AjvRegistry, ref: string): SchemaEnvLike | undefined {
  let key = ref;
  for (let hops = 0; hops < 16; hops++) {
    const found = ajv.schemas?.[key] ?? ajv.refs?.[key];
    if (typeof found !== "string") return found && typeof found.schema === "object" ? found : undefined;
    key = found;
  }
  return undefined;
}

/** Installs the lookup once per process; returns whether it is in place. */
export function lookUpSchemaRefsWithoutCompiling(): boolean {
  const prototype = schemaPreprocessorClass()?.prototype;
  const original = prototype?.resolveSchema;
  if (!prototype || typeof original !== "function") return false;
  if (original[ORIGINAL]) return true;
  const lookUp = function (this: Preprocessor, schema: unknown): unknown {
    const ref = (schema as { $ref?: unknown } | null | undefined)?.$ref;
    if (typeof ref !== "string" || !(this.resolvedSchemaCache instanceof Map) || this.resolvedSchemaCache.has(ref))
      return original.call(this, schema);
    const env = registered(this.ajv, ref);
    if (!env) return original.call(this, schema);
    this.resolvedSchemaCache.set(ref, env.schema);
    return env.schema;
  };
  prototype.resolveSchema = Object.assign(lookUp, { [ORIGINAL]: original });
  return true;
}
