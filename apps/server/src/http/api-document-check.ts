import { createRequire } from "node:module";

/**
 * express-openapi-validator 5.6 checks each document it loads against the OpenAPI schema with an
 * `OpenAPISchemaValidator` (dist/framework/openapi.schema.validator.js), and each one compiles that
 * schema with a fresh Ajv instance in its constructor, whether or not the document is then checked.
 * The server loads eight documents at start-up: the compilation of one and the same schema was
 * about a quarter of the start-up's CPU. This shares one checker per (OpenAPI version, options):
 * the compiled schema depends on nothing else, and checking is synchronous, so the errors a check
 * leaves on it are read before another check runs. The validator reads the class from the module
 * object at call time (`openapi_schema_validator_1.OpenAPISchemaValidator`), so replacing the
 * export takes effect. Every document is still checked, with the validator's own code.
 */

interface SchemaValidatorOptions {
  version: string;
  validateApiSpec?: boolean;
}

type SchemaValidatorClass = new (options: SchemaValidatorOptions) => object;

const SHARED = Symbol.for("tracker.sharedOpenApiSchemaValidator");

/** The module object the validator's document loading uses. */
function schemaValidatorModule(): { OpenAPISchemaValidator?: SchemaValidatorClass & { [SHARED]?: true } } {
  const require = createRequire(import.meta.url);
  return require("express-openapi-validator/dist/framework/openapi.schema.validator.js") as {
    OpenAPISchemaValidator?: SchemaValidatorClass & { [SHARED]?: true };
  };
}

/** Installs the sharing once per process; returns whether it is in place. */
export function shareApiDocumentCheck(): boolean {
  const mod = schemaValidatorModule();
  const Original = mod.OpenAPISchemaValidator;
  if (typeof Original !== "function") return false;
  if (Original[SHARED]) return true;
  const made = new Map<string, object>();
  // A constructor that returns an object gives that object to `new`: the shared checker.
  const shared = function sharedOpenApiSchemaValidator(options: SchemaValidatorOptions): object {
    const key = `${options.version} ${options.validateApiSpec === true}`;
    let checker = made.get(key);
    if (!checker) {
      checker = new Original(options);
      made.set(key, checker);
    }
    return checker;
  } as unknown as SchemaValidatorClass & { [SHARED]?: true };
  shared[SHARED] = true;
  mod.OpenAPISchemaValidator = shared;
  return schemaValidatorModule().OpenAPISchemaValidator === shared;
}
