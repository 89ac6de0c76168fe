import zlib from "node:zlib";
import fc from "fast-check";
import type { Operation, Schema } from "./spec-operations.js";

/**
 * Bad requests derived from an operation's schema, for property tests. A request is a valid base
 * (built at send time from live fixtures, so ids exist and deeper checks are reached) with one or
 * more mutations. Each mutation says whether the server MUST refuse it (`mustReject`: the result
 * breaks the spec: wrong type, missing required field, over a limit, pattern broken, NUL, not JSON,
 * ...) or MAY accept it (extra fields, SQL meta-characters in free text, values at a limit, tampered
 * page tokens that might still decode, ...). Either way the server must never answer 5xx.
 */

export type Path = Array<string | number>;

/** A JSON fragment written as is into the serialised body (numbers JSON.stringify cannot write). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A query value written as is (already percent-encoded or deliberately broken). */
export class RawQuery {
  constructor(readonly text: string) {}
}

export type Mutation =
  | { kind: "delete"; path: Path }
  | { kind: "set"; path: Path; value: unknown }
  | { kind: "extra"; key: string; value: unknown }
  | { kind: "rawBody"; body: Uint8Array | string }
  | { kind: "rawQuery"; suffix: string };

export interface LabelledMutation {
  mutation: Mutation;
  mustReject: boolean;
  label: string;
}

export interface RequestPlan {
  mutations: LabelledMutation[];
  contentType: string | null;
  contentEncoding?: string;
  /** Whether the content type / encoding alone makes the request invalid (when it has a body). */
  headerMustReject: boolean;
}

/** Live resources that valid bases refer to; recreated by the test when a request changed them. */
export interface Fixtures {
  experimentId: number;
  experimentName: string;
  runId: string;
  modelName: string;
  version: string;
  /** A name never used before. */
  fresh(): string;
}

// ------------------------------------------------------------------------------------- payloads

export const SQL_PAYLOADS = [
  "' OR '1'='1",
  "'; DROP TABLE runs; --",
  '"; DROP TABLE experiments; --',
  "1; DELETE FROM metrics",
  "x' UNION SELECT run_uuid FROM runs --",
  "name = 'a' OR 1=1",
  "') OR ('a'='a",
  "%' OR name LIKE '%",
  "\\'; TRUNCATE params; --",
  "$$; DROP TABLE tags; $$",
  "/* comment */ 1",
  "metrics.`x` = 1; DROP TABLE runs",
  "attributes.status = 'FINISHED' OR 1=1 --",
  "tags.\"a\" = 'b'",
  "params.x = 'y' AND (SELECT 1) = 1",
  "name ILIKE '%' ESCAPE '\\'",
  "1e400",
  "NaN",
];

export const PATH_PAYLOADS = [
  "../",
  "../../etc/passwd",
  "/etc/passwd",
  "..\\..\\windows",
  "C:\\Windows",
  "%2e%2e%2f%2e%2e%2fetc",
  "..%2f..%2f",
  "%252e%252e%252f",
  "a/../../b",
  "./././../x",
  "file:///etc/passwd",
  "....//....//",
];

export const ODD_STRINGS = [
  "",
  " ",
  "\t\r\n",
  "'",
  '"',
  "`",
  "\\",
  ";",
  "--",
  "%",
  "_",
  "%s%n%x",
  "{{7*7}}",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell probe, sent as written
  "${jndi:ldap://x/a}",
  "<script>alert(1)</script>",
  "\u202Eevil",
  "\uFEFFbom",
  "😀".repeat(10),
  "e\u0301",
  "\uD800",
  "\uDFFFx",
  "𝕏".repeat(300),
  "a".repeat(100_000),
];

export const FILTER_PAYLOADS = [
  ...SQL_PAYLOADS,
  "metrics.loss < 1 AND params.lr = '0.1'",
  "metrics.loss > NaN",
  "metrics.loss > 1e400",
  "attributes.start_time > 99999999999999999999999",
  "tags.`mlflow.runName` LIKE '%'",
  "params.a IN ('x', 'y')",
  "name = 'unterminated",
  `${"(".repeat(5000)}name = 'a'${")".repeat(5000)}`,
  Array.from({ length: 3000 }, (_, i) => `params.p${i} = 'v'`).join(" AND "),
  "metrics.",
  "= = =",
  "name LIKE '%\\'",
  "tags.x = 'a' AND",
  "run_id IN ()",
  `attributes.run_id IN ('${"a".repeat(32)}')`,
];

export const ORDER_BY_PAYLOADS = [
  "metrics.loss DESC; DROP TABLE runs",
  "name ASC, name DESC",
  "`a` ASC",
  "attributes.start_time DESCENDING",
  "params.`x` ASC",
  "1",
  "(SELECT 1)",
  'name COLLATE "C"',
  "metrics.x NULLS FIRST",
  "",
  "timestamp DESC",
  "last_updated_timestamp ASC",
];

export const TOKEN_PAYLOADS = [
  "!!!",
  "=",
  "eyJvZmZzZXQiOiAxfQ==",
  Buffer.from(JSON.stringify({ offset: -1 })).toString("base64url"),
  Buffer.from(JSON.stringify({ offset: 1e308 })).toString("base64url"),
  Buffer.from(JSON.stringify({ offset: "1; DROP TABLE runs" })).toString("base64url"),
  Buffer.from(JSON.stringify({ v: 1, q: "x", k: ["'; DROP TABLE runs; --"] })).toString("base64url"),
  Buffer.from(JSON.stringify({ v: 1, q: "x", k: [] })).toString("base64url"),
  Buffer.from(JSON.stringify({ s: "x", o: "y", a: [null, { a: 1 }] })).toString("base64url"),
  Buffer.from("not json at all").toString("base64url"),
  Buffer.from("null").toString("base64url"),
  Buffer.from("[]").toString("base64url"),
  "A".repeat(300_000),
];

// ------------------------------------------------------------------------------------- schemas

const typesOf = (schema: Schema): string[] => {
  if (schema.anyOf || schema.oneOf) return [...new Set((schema.anyOf ?? schema.oneOf ?? []).flatMap(typesOf))];
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
};

/** The branch of an anyOf/oneOf used for valid values: the first one. */
const primary = (schema: Schema): Schema => schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema;

const isDouble = (schema: Schema) => typesOf(schema).includes("number");
const isInteger = (schema: Schema) => typesOf(schema).includes("integer");
const lastName = (path: Path): string => String([...path].reverse().find((p) => typeof p === "string") ?? "");

function patternOf(schema: Schema): RegExp | undefined {
  const p = primary(schema).pattern ?? schema.pattern;
  return p === undefined ? undefined : new RegExp(p, "u");
}

const REGISTRY_NAME_OPS = /RegisteredModel|ModelVersion|getLatestVersions/;

/** A valid value for the field at `path` of `op`. `query` values are strings (or string arrays). */
export function validValue(op: Operation, path: Path, schema: Schema, fx: Fixtures, query: boolean): unknown {
  const name = lastName(path);
  const asQuery = (v: unknown): unknown => (query ? (Array.isArray(v) ? v.map(String) : String(v)) : v);
  const integerId = (id: number) => (isInteger(schema) ? id : String(id));
  switch (name) {
    case "run_id":
    case "run_uuid":
      return fx.runId;
    case "parent_run_id":
      return fx.runId;
    case "experiment_id":
      return asQuery(integerId(fx.experimentId));
    case "experiment_ids":
      return asQuery([isInteger(schema.items ?? {}) ? fx.experimentId : String(fx.experimentId)]);
    case "experiment_name":
      return fx.experimentName;
    case "name":
      if (path.length > 1) break;
      if (op.operationId === "createExperiment" || op.operationId === "createRegisteredModel") return fx.fresh();
      return REGISTRY_NAME_OPS.test(op.operationId) ? fx.modelName : fx.fresh();
    case "new_name":
      return fx.fresh();
    case "version":
      return fx.version;
    case "metric_key":
      return "m1";
    case "param_name":
      return "p1";
    case "stage":
      return "Staging";
    case "source":
      return "s3://bucket/model";
    case "model_json":
      return JSON.stringify({
        artifact_path: "model",
        flavors: {},
        utc_time_created: "2024-01-01 00:00:00",
        run_id: fx.runId,
      });
    case "timestamp":
    case "start_time":
    case "end_time":
      return asQuery(1_700_000_000_000);
    case "step":
      return asQuery(0);
  }
  if (name === "key" && !schema.enum) return "k1";
  if (name === "value" && !isDouble(schema) && typesOf(schema).includes("string")) return "v1";
  const s = primary(schema);
  if (s.enum && s.enum.length > 0) return s.enum[0];
  const types = typesOf(schema);
  if (isDouble(schema) && !types.includes("integer")) return asQuery(1.5);
  if (types.includes("integer")) return asQuery(Math.max(s.minimum ?? 1, 1));
  if (types.includes("boolean")) return asQuery(false);
  if (types.includes("array")) return [validValue(op, [...path, 0], s.items ?? {}, fx, query)];
  if (types.includes("object") || s.properties) {
    const out: Record<string, unknown> = {};
    for (const req of s.required ?? []) out[req] = validValue(op, [...path, req], s.properties?.[req] ?? {}, fx, query);
    return out;
  }
  const pattern = patternOf(schema);
  for (const candidate of ["x", "1", "a1"]) if (!pattern || pattern.test(candidate)) return candidate;
  return "x";
}

/** Top-level fields always present in a base even when optional: they name the resource. */
const IDENTITY_FIELDS = ["run_id", "experiment_id"];

/** The base input of an operation: its required fields, plus run_id/experiment_id when it has them. */
export function baseInput(op: Operation, fx: Fixtures): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  if (op.method === "GET") {
    for (const p of op.query) {
      if (p.required || IDENTITY_FIELDS.includes(p.name)) input[p.name] = validValue(op, [p.name], p.schema, fx, true);
    }
    if (op.query.some((p) => p.name === "run_uuid") && !op.query.some((p) => p.name === "run_id"))
      input.run_uuid = fx.runId;
    return input;
  }
  const body = op.body ?? {};
  const props = body.properties ?? {};
  for (const [field, schema] of Object.entries(props)) {
    if ((body.required ?? []).includes(field) || IDENTITY_FIELDS.includes(field))
      input[field] = validValue(op, [field], schema, fx, false);
  }
  if (props.run_uuid && !props.run_id) input.run_uuid = fx.runId;
  return input;
}

// ------------------------------------------------------------------------------------- fields

export interface Field {
  path: Path;
  schema: Schema;
  required: boolean;
  query: boolean;
}

/** Every field of an operation, nested ones included (array items as index 0), up to depth 4. */
export function fieldsOf(op: Operation): Field[] {
  const fields: Field[] = [];
  if (op.method === "GET") {
    for (const p of op.query) fields.push({ path: [p.name], schema: p.schema, required: p.required, query: true });
    return fields;
  }
  const walk = (schema: Schema, path: Path, required: boolean) => {
    if (path.length > 0) fields.push({ path, schema, required, query: false });
    if (path.length >= 4) return;
    const s = primary(schema);
    if (s.properties)
      for (const [k, v] of Object.entries(s.properties)) walk(v, [...path, k], (s.required ?? []).includes(k));
    if (s.items) walk(s.items, [...path, 0], true);
  };
  walk(op.body ?? {}, [], true);
  return fields;
}

// ------------------------------------------------------------------------------------- mutations

const must = (mutation: Mutation, label: string): LabelledMutation => ({ mutation, mustReject: true, label });
const may = (mutation: Mutation, label: string): LabelledMutation => ({ mutation, mustReject: false, label });

const oddString = fc.oneof(
  fc.constantFrom(...ODD_STRINGS, ...SQL_PAYLOADS, ...PATH_PAYLOADS),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }).map((s) => s.replaceAll("\u0000", "")),
);

/** Deeply nested JSON, written raw (JSON.stringify of such a value would itself recurse). */
const deepJson = fc
  .integer({ min: 100, max: 200_000 })
  .chain((depth) =>
    fc.constantFrom(
      new RawJson("[".repeat(depth) + "]".repeat(depth)),
      new RawJson(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`),
    ),
  );

const HUGE_NUMBERS = [
  "1e400",
  "-1e400",
  "123456789012345678901234567890",
  "9007199254740993",
  "-9007199254740993",
  "1e308",
  "1.7976931348623157e309",
  "5e-324",
  "-0",
  "0.1e-400",
];

/** Whether a value is a valid instance of a number-ish schema (for classifying numeric mutations). */
function numberAccepted(schema: Schema, n: number): boolean {
  const s = schema;
  if (!Number.isFinite(n)) return false;
  if (s.minimum !== undefined && n < s.minimum) return false;
  if (s.maximum !== undefined && n > s.maximum) return false;
  return true;
}

/** Hostile text suited to a field: filters, order_by clauses, page tokens, artifact paths. */
function payloadsFor(name: string): fc.Arbitrary<string> {
  switch (name) {
    case "filter":
      return fc.constantFrom(...FILTER_PAYLOADS);
    case "order_by":
      return fc.constantFrom(...ORDER_BY_PAYLOADS, ...SQL_PAYLOADS);
    case "page_token":
      return fc.constantFrom(...TOKEN_PAYLOADS);
    case "path":
      return fc.constantFrom(...PATH_PAYLOADS);
    default:
      return fc.constantFrom(...SQL_PAYLOADS, ...ODD_STRINGS);
  }
}

/** The mutations that make sense for one field. */
export function fieldMutations(field: Field): fc.Arbitrary<LabelledMutation>[] {
  const { path, schema, required, query } = field;
  const where = path.join(".");
  const types = typesOf(schema);
  const s = primary(schema);
  const pattern = patternOf(schema);
  const enumValues = s.enum;
  const name = lastName(path);
  const out: fc.Arbitrary<LabelledMutation>[] = [];
  const set = (value: unknown, label: string, mustReject: boolean) =>
    fc.constant((mustReject ? must : may)({ kind: "set", path, value }, `${where}: ${label}`));

  if (required && (path.length === 1 || typeof path[path.length - 1] === "string")) {
    out.push(fc.constant(must({ kind: "delete", path }, `${where}: missing`)));
  }
  const isString = types.includes("string") && !types.includes("integer") && !types.includes("number");
  const isNumeric = types.includes("integer") || types.includes("number");

  // ---- wrong types
  if (query) {
    // Everything in a query string is a string: wrong "types" are arrays, objects, non-numbers.
    if (!types.includes("array")) {
      out.push(set(["a", "b"], "repeated key (array)", true));
      out.push(set({ nested: "x" }, "nested object k[nested]=x", true));
    }
    if (types.includes("integer")) {
      out.push(
        fc
          .constantFrom("abc", "1.5", "", "--1", "1;DROP TABLE runs", "12abc")
          .map((v) => must({ kind: "set", path, value: v }, `${where}: not an integer (${JSON.stringify(v)})`)),
      );
      out.push(
        fc
          .constantFrom("1e3", "0x10", " 1", "Infinity", "-0", "99999999999999999999")
          .map((v) => may({ kind: "set", path, value: v }, `${where}: odd integer text ${v}`)),
      );
      out.push(
        fc
          .oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.constantFrom(0, -1, 2 ** 53, 2 ** 63, 1e21))
          .map((n) => {
            const v = String(n);
            const bad = !numberAccepted(s, n) || !Number.isSafeInteger(n);
            return bad
              ? must({ kind: "set", path, value: v }, `${where}: out of range ${v}`)
              : may({ kind: "set", path, value: v }, `${where}: ${v}`);
          }),
      );
    }
  } else {
    const wrong: unknown[] = [];
    if (!types.includes("string")) wrong.push("abc");
    if (!isNumeric) wrong.push(12345, -1, 1.5);
    if (isNumeric && !types.includes("number")) wrong.push(1.5);
    if (!types.includes("boolean")) wrong.push(true);
    if (!types.includes("array")) wrong.push([], ["x"]);
    if (!types.includes("object") && !s.properties) wrong.push({}, { a: { b: "c" } });
    if (types.length > 0 && wrong.length > 0) {
      out.push(
        fc
          .constantFrom(...wrong)
          .map((v) => must({ kind: "set", path, value: v }, `${where}: wrong type ${JSON.stringify(v)}`)),
      );
    }
    // null is the absent value (protobuf's JSON mapping, as MLflow's server reads it): refused where the
    // field is required (a missing value), accepted where it is optional. Either way never a 5xx.
    if (types.length > 0 && !types.includes("null"))
      out.push(fc.constant(may({ kind: "set", path, value: null }, `${where}: null (the absent value)`)));
    if (types.length > 0 && !types.includes("object") && !types.includes("array")) {
      out.push(deepJson.map((v) => must({ kind: "set", path, value: v }, `${where}: deeply nested JSON`)));
    }
  }

  // ---- strings: limits, patterns, enums, NUL, hostile text
  if (isString || (types.includes("string") && pattern)) {
    const filler = pattern && !pattern.test("a") ? "1" : "a";
    if (s.maxLength !== undefined) {
      const max = s.maxLength;
      out.push(
        fc
          .integer({ min: 1, max: 50 })
          .map((extra) =>
            must({ kind: "set", path, value: filler.repeat(max + extra) }, `${where}: ${extra} over maxLength ${max}`),
          ),
      );
      out.push(set(filler.repeat(max), `exactly maxLength ${max}`, false));
      if (!pattern) out.push(set("é".repeat(max), `maxLength ${max} two-byte characters`, false));
    } else if (isString) {
      out.push(set("a".repeat(200_000), "200 000 characters (no limit in the spec)", false));
    }
    if (s.minLength !== undefined && s.minLength > 0) out.push(set("", `empty (minLength ${s.minLength})`, true));
    if (pattern) {
      out.push(
        fc
          .oneof(oddString, fc.constantFrom(...SQL_PAYLOADS, ...PATH_PAYLOADS))
          .filter((v) => !pattern.test(v) && !v.includes("\u0000"))
          .map((v) =>
            must(
              { kind: "set", path, value: v },
              `${where}: breaks pattern ${pattern.source} (${JSON.stringify(v.slice(0, 40))})`,
            ),
          ),
      );
    }
    if (enumValues && enumValues.length > 0) {
      out.push(
        oddString
          .filter((v) => !enumValues.some((e) => String(e).toLowerCase() === v.toLowerCase()))
          .map((v) =>
            must({ kind: "set", path, value: v }, `${where}: not in enum (${JSON.stringify(v.slice(0, 40))})`),
          ),
      );
    }
    out.push(
      fc
        .tuple(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }))
        .map(([a, b]) => must({ kind: "set", path, value: `${a}\u0000${b}` }, `${where}: NUL character`)),
    );
    if (!pattern && !enumValues) {
      out.push(
        fc
          .oneof(payloadsFor(name), oddString)
          .map((v) => may({ kind: "set", path, value: v }, `${where}: odd text ${JSON.stringify(v.slice(0, 60))}`)),
      );
    }
  }
  // Arrays of strings in a query string (order_by=..&order_by=..): hostile items.
  if (query && types.includes("array")) {
    out.push(
      fc
        .array(fc.oneof(payloadsFor(name), oddString), { minLength: 1, maxLength: 3 })
        .map((v) =>
          may({ kind: "set", path, value: v }, `${where}: odd items ${JSON.stringify(v.map((x) => x.slice(0, 30)))}`),
        ),
    );
  }

  // ---- numbers (JSON bodies): bounds, unsafe integers, raw huge literals, NaN/Infinity strings
  if (!query && isNumeric) {
    const integer = types.includes("integer") && !types.includes("number");
    const bounds: number[] = [];
    if (s.minimum !== undefined) bounds.push(s.minimum - 1, s.minimum);
    if (s.maximum !== undefined) bounds.push(s.maximum, s.maximum + 1);
    bounds.push(-1, 0, 2 ** 53, -(2 ** 53), 2 ** 63, 1e21);
    out.push(
      fc.constantFrom(...bounds).map((n) => {
        const bad = !numberAccepted(s, n) || (integer && !Number.isSafeInteger(n));
        return bad
          ? must({ kind: "set", path, value: n }, `${where}: out of range ${n}`)
          : may({ kind: "set", path, value: n }, `${where}: ${n}`);
      }),
    );
    out.push(
      fc.constantFrom(...HUGE_NUMBERS).map((text) => {
        const n = Number(text);
        // JSON numbers are read as doubles: 0.1e-400 is 0 and -0 is 0, both valid integers.
        const bad = integer ? !Number.isSafeInteger(n) || !numberAccepted(s, n) : false;
        return bad
          ? must({ kind: "set", path, value: new RawJson(text) }, `${where}: raw number ${text}`)
          : may({ kind: "set", path, value: new RawJson(text) }, `${where}: raw number ${text}`);
      }),
    );
    if (types.includes("string")) {
      // The int64/double string forms of protobuf's JSON mapping.
      if (integer) {
        out.push(
          fc
            .constantFrom("99999999999999999999", "1.5", "1e3", " 1", "0x10", "", "NaN")
            .map((v) => must({ kind: "set", path, value: v }, `${where}: bad int64 text ${JSON.stringify(v)}`)),
        );
        out.push(
          fc
            .constantFrom("9223372036854775807", "-9223372036854775808", "9007199254740993")
            .map((v) => must({ kind: "set", path, value: v }, `${where}: unsafe int64 text ${v}`)),
        );
      } else {
        out.push(
          fc
            .constantFrom("NaN", "Infinity", "-Infinity", "1.5", "-0", "1e308", "1e400")
            .map((v) => may({ kind: "set", path, value: v }, `${where}: double text ${v}`)),
        );
        out.push(
          fc
            .constantFrom("nan", "inf", "1,5", "0x10", "", "Infinity!", "--1")
            .map((v) => must({ kind: "set", path, value: v }, `${where}: bad double text ${JSON.stringify(v)}`)),
        );
      }
    }
  }

  // ---- arrays: too many items
  if (!query && types.includes("array") && s.maxItems !== undefined) {
    const max = s.maxItems;
    out.push(
      fc.constant(
        must({ kind: "set", path, value: { __repeatItem: max + 1 } }, `${where}: ${max + 1} items (maxItems ${max})`),
      ),
    );
    out.push(
      fc.constant(may({ kind: "set", path, value: { __repeatItem: max } }, `${where}: exactly maxItems ${max}`)),
    );
  }
  return out;
}

/** Mutations of the request as a whole: extra fields, raw bodies, raw query strings. */
export function requestMutations(op: Operation): fc.Arbitrary<LabelledMutation>[] {
  const out: fc.Arbitrary<LabelledMutation>[] = [];
  const extraKey = fc.oneof(
    fc.constantFrom("extra", "__proto__", "constructor", "toString", "a[b]", "x.y", "'; DROP TABLE runs; --"),
    fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !k.includes("\u0000")),
  );
  if (op.method === "GET") {
    out.push(
      fc
        .tuple(extraKey, oddString)
        .filter(([k]) => !op.query.some((p) => p.name === k))
        .map(([key, value]) => may({ kind: "extra", key, value }, `extra query parameter ${JSON.stringify(key)}`)),
    );
    out.push(
      fc
        .constantFrom(
          "&%ZZ=1",
          "&x=%FF%FE",
          "&x=%C0%AF",
          "&%=%",
          "&a[b][c][d][e][f][g]=1",
          `&x=${"%41".repeat(2000)}`,
          "&&&",
          "&x=1&x[]=2&x[0]=3",
          "&x=%E2%82",
        )
        .map((suffix) => may({ kind: "rawQuery", suffix }, `raw query ${suffix.slice(0, 40)}`)),
    );
    out.push(
      fc
        .constantFrom("&extra=%00", "&%00=1")
        .map((suffix) => must({ kind: "rawQuery", suffix }, `NUL in query ${suffix}`)),
    );
    return out;
  }
  const props = op.body?.properties ?? {};
  out.push(
    fc
      .tuple(extraKey, fc.oneof(fc.jsonValue({ maxDepth: 4 }), oddString, deepJson))
      .filter(([k]) => !(k in props))
      .map(([key, value]) => may({ kind: "extra", key, value }, `extra field ${JSON.stringify(key)}`)),
  );
  const text = (s: string) => new TextEncoder().encode(s);
  out.push(
    fc
      .oneof(
        fc.constantFrom(
          "{not json",
          "{'a': 1}",
          '{"a":1,}',
          "<xml/>",
          "name=x&y=z",
          '{"a":"\\x"}',
          '{"a": 01}',
          '{"a": NaN}',
          '{"a": Infinity}',
          "}{",
          '{"a":"b"',
        ),
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => {
          try {
            JSON.parse(s);
            return false;
          } catch {
            return true;
          }
        }),
      )
      .map((body) => must({ kind: "rawBody", body }, `not JSON: ${JSON.stringify(body.slice(0, 40))}`)),
  );
  out.push(
    fc
      .constantFrom("5", '"x"', "[]", "[{}]", "true", "-1e400")
      .map((body) => must({ kind: "rawBody", body }, `JSON that is not an object: ${body}`)),
  );
  out.push(
    fc
      .constantFrom("null", " ", "{}")
      .map((body) => may({ kind: "rawBody", body }, `empty-ish body ${JSON.stringify(body)}`)),
  );
  out.push(
    fc
      .constantFrom(
        Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), // {"a":"\xff\xfe"}
        Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]), // overlong '/'
        Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]), // UTF-8 encoded surrogate
        Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe2, 0x82, 0x22, 0x7d]), // truncated sequence
        Uint8Array.from([...text('{"name":"x'), 0x80, ...text('"}')]),
      )
      .map((body) => must({ kind: "rawBody", body }, "invalid UTF-8 in the body")),
  );
  out.push(
    fc
      .integer({ min: 100, max: 400_000 })
      .map((depth) =>
        must({ kind: "rawBody", body: "[".repeat(depth) + "]".repeat(depth) }, `body: ${depth} nested arrays`),
      ),
  );
  // An object whose one unknown field is nested deeply: unknown fields are ignored, so it may pass.
  out.push(
    fc
      .integer({ min: 100, max: 150_000 })
      .map((depth) =>
        may(
          { kind: "rawBody", body: `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}` },
          `body: ${depth} nested objects`,
        ),
      ),
  );
  return out;
}

const CONTENT_TYPES: Array<{ value: string | null; mustReject: boolean }> = [
  { value: "application/json", mustReject: false },
  { value: "application/json; charset=utf-8", mustReject: false },
  { value: "text/plain", mustReject: false },
  { value: "application/x-www-form-urlencoded", mustReject: false },
  { value: "multipart/form-data; boundary=xyz", mustReject: false },
  { value: "application/xml", mustReject: false },
  { value: null, mustReject: false },
  { value: "application/json; charset=bogus-8", mustReject: true },
  { value: "application/json; charset=utf-16le", mustReject: true },
];

/** Any number of mutations (at most one per top-level field), a Content-Type, maybe an encoding. */
export function requestPlans(op: Operation): fc.Arbitrary<RequestPlan> {
  const fieldArbs = fieldsOf(op).flatMap((f) => fieldMutations(f).map((arb) => ({ key: String(f.path[0]), arb })));
  const whole = requestMutations(op).map((arb) => ({ key: "<request>", arb }));
  const all = [...fieldArbs, ...whole];
  const one = fc.integer({ min: 0, max: all.length - 1 }).chain((i) => all[i].arb.map((m) => ({ key: all[i].key, m })));
  const mutations = fc
    .uniqueArray(one, { minLength: 1, maxLength: 2, selector: (x) => x.key })
    .map((xs) => xs.map((x) => x.m));
  const contentType = fc.oneof(
    { weight: 4, arbitrary: fc.constant(CONTENT_TYPES[0]) },
    { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  );
  const encoding = fc.oneof(
    { weight: 9, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom("gzip", "br", "bogus") },
  );
  return fc.record({ mutations, contentType, encoding }).map(({ mutations: ms, contentType: ct, encoding: enc }) => ({
    mutations: ms,
    contentType: op.method === "GET" ? null : ct.value,
    contentEncoding: op.method === "GET" ? undefined : enc,
    // The body is never compressed, so any Content-Encoding makes it unreadable.
    headerMustReject: op.method !== "GET" && (ct.mustReject || enc !== undefined),
  }));
}

// ------------------------------------------------------------------------------------- building

export interface BuiltRequest {
  method: string;
  path: string;
  query: string;
  body?: Uint8Array | string;
  headers: Record<string, string>;
  /** Every string the request carries, so echoes of them can be told from leaks. */
  sentStrings: string[];
  mustReject: boolean;
  labels: string[];
}

function setAt(target: Record<string, unknown>, path: Path, value: unknown, fill: (prefix: Path) => unknown): void {
  let node: Record<string | number, unknown> = target;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i];
    const next = node[key];
    if (next === null || typeof next !== "object") node[key] = fill(path.slice(0, i + 1));
    node = node[key] as Record<string | number, unknown>;
  }
  node[path[path.length - 1]] = value;
}

/** Deletes the field at `path`, creating valid parents first (so `tags.0.key` means an item without key). */
function deleteAt(target: Record<string, unknown>, path: Path, fill: (prefix: Path) => unknown): void {
  let node: Record<string | number, unknown> = target;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i];
    if (node[key] === null || typeof node[key] !== "object") node[key] = fill(path.slice(0, i + 1));
    node = node[key] as Record<string | number, unknown>;
  }
  delete node[path[path.length - 1]];
}

function schemaAt(op: Operation, path: Path): Schema {
  if (op.method === "GET") return op.query.find((p) => p.name === path[0])?.schema ?? {};
  let s: Schema = op.body ?? {};
  for (const key of path) {
    const p = primary(s);
    s = typeof key === "number" ? (p.items ?? {}) : (p.properties?.[key] ?? {});
  }
  return s;
}

/** JSON with RawJson fragments written in place. */
export function serialise(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `\u0001RAW${raws.length - 1}\u0001`;
    }
    return v;
  });
  return text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]);
}

const strictEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Lone surrogates cannot be percent-encoded; send them as the replacement character. */
const wellFormed = (s: string) =>
  s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");

function queryString(input: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (key: string, value: unknown) => {
    if (value instanceof RawQuery) parts.push(`${strictEncode(key)}=${value.text}`);
    else if (Array.isArray(value)) for (const v of value) add(key, v);
    else if (value !== null && typeof value === "object")
      for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    else parts.push(`${strictEncode(wellFormed(key))}=${strictEncode(wellFormed(String(value)))}`);
  };
  for (const [k, v] of Object.entries(input)) add(k, v);
  return parts.join("&");
}

function collectStrings(value: unknown, out: string[]): void {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") out.push(v);
    else if (v instanceof RawJson || v instanceof RawQuery) out.push(v.text);
    else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) {
        out.push(k);
        stack.push(child);
      }
    }
  }
}

/** Whether the body reads as blank (hence {}) in the declared charset: " ", or one byte as UTF-16. */
function blankAs(body: Uint8Array | string, contentType: string | null): boolean {
  const bytes = typeof body === "string" ? Buffer.from(body) : Buffer.from(body);
  const charset = /charset=utf-16le/i.test(contentType ?? "") ? "utf-16le" : "utf-8";
  return (
    new TextDecoder(charset)
      .decode(bytes.subarray(0, charset === "utf-16le" ? bytes.length - (bytes.length % 2) : bytes.length))
      .trim() === ""
  );
}

function decodes(body: Uint8Array | string, encoding: string | undefined): boolean {
  if (encoding === undefined) return false;
  try {
    const bytes = typeof body === "string" ? Buffer.from(body) : body;
    if (encoding === "gzip") zlib.gunzipSync(bytes);
    else if (encoding === "br") zlib.brotliDecompressSync(bytes);
    else return false;
    return true;
  } catch {
    return false;
  }
}

/** Turns a plan into a concrete HTTP request against the current fixtures. */
export function buildRequest(op: Operation, plan: RequestPlan, fx: Fixtures): BuiltRequest {
  const input = baseInput(op, fx);
  const query = op.method === "GET";
  let rawBody: Uint8Array | string | undefined;
  let rawQuery = "";
  let mustReject = false;
  const labels: string[] = [];
  const fill = (prefix: Path) => validValue(op, prefix, schemaAt(op, prefix), fx, query);
  for (const { mutation, label } of plan.mutations) {
    labels.push(label);
    switch (mutation.kind) {
      case "delete":
        deleteAt(input, mutation.path, fill);
        break;
      case "set": {
        let value = mutation.value;
        const repeat = (value as { __repeatItem?: number } | null)?.__repeatItem;
        if (repeat !== undefined) {
          const item = validValue(
            op,
            [...mutation.path, 0],
            primary(schemaAt(op, mutation.path)).items ?? {},
            fx,
            query,
          );
          value = Array.from({ length: repeat }, () => item);
        }
        setAt(input, mutation.path, value, fill);
        break;
      }
      case "extra":
        input[mutation.key] = mutation.value;
        break;
      case "rawBody":
        rawBody = mutation.body;
        break;
      case "rawQuery":
        rawQuery += mutation.suffix;
        break;
    }
  }
  // A raw body replaces the fields: only its own verdict counts then.
  const rawMutation = plan.mutations.find((m) => m.mutation.kind === "rawBody");
  mustReject = rawMutation ? rawMutation.mustReject : plan.mutations.some((m) => m.mustReject);
  const headers: Record<string, string> = {};
  const sentStrings: string[] = [];
  collectStrings(input, sentStrings);
  if (query) {
    return {
      method: op.method,
      path: op.path,
      query: queryString(input) + rawQuery,
      headers,
      sentStrings: [...sentStrings, rawQuery],
      mustReject,
      labels,
    };
  }
  const body = rawBody ?? serialise(input);
  if (typeof body === "string") sentStrings.push(body);
  if (plan.contentType !== null) headers["content-type"] = plan.contentType;
  if (plan.contentEncoding) headers["content-encoding"] = plan.contentEncoding;
  if (plan.contentEncoding !== undefined) {
    // The body is never really compressed: the server reads whatever the bytes inflate to, and a
    // few bytes happen to be a valid stream ("5" is an empty brotli stream, read as {}). Only a
    // body that cannot be decoded must be refused.
    mustReject = !decodes(body, plan.contentEncoding);
    labels.push(`content-type ${plan.contentType}, content-encoding ${plan.contentEncoding}`);
  } else if (plan.headerMustReject && !blankAs(body, plan.contentType)) {
    // A bogus or mismatched charset must be refused, unless the body reads as blank (then {}).
    mustReject = true;
    labels.push(`content-type ${plan.contentType}`);
  }
  return { method: op.method, path: op.path, query: "", body, headers, sentStrings, mustReject, labels };
}
