/**
 * What each search's filter and order_by may name: its entities (metrics, params, tags, datasets,
 * attributes and their prefix spellings), its attributes with their types and operators, and
 * whether keyed fields may order it. The filter parser (filter-parser.ts) and the one order_by
 * parser (order-by.ts) read identifiers with these through field-reader.ts.
 */
import type { FilterAttribute, StringOperator } from "./ast.js";

export type FieldType = "numeric" | "string" | "id";

export interface AttributeSpec<Attribute extends string = FilterAttribute> {
  key: Attribute;
  type: FieldType;
  inAllowed: boolean;
  orderable: boolean;
  /** The string operators the field takes, when fewer than all (registry searches). */
  operators?: readonly StringOperator[];
}

/** The fields one search (runs, experiments, registered models, ...) may name, and how it names them. */
export interface FieldVocabulary<Attribute extends string = FilterAttribute> {
  /** "runs", "experiments", ..., for messages. */
  name: string;
  /** The prefixes of fields (lower case) and the entity each names; none: a word is an attribute. */
  entities: Readonly<Record<string, "metric" | "param" | "tag" | "dataset" | "attribute">>;
  /** The attributes by their lower-case names (other spellings map to the same key). */
  attributes: Readonly<Record<string, AttributeSpec<Attribute>>>;
  /** What messages call an attribute: "attribute", or "column" for the registry's order_by. */
  attributeNoun?: string;
  /** Entities with keys (besides attribute). */
  keyed: ReadonlyArray<"metric" | "param" | "tag">;
  /** The operators keyed string fields (params, tags) take, when fewer than all; then without IN. */
  keyedOperators?: readonly StringOperator[];
  /** Whether order_by may name keyed fields. */
  keyedOrderable: boolean;
  /** What an identifier may be, for messages. */
  identifiers: string;
  /** Added to the message about an unknown attribute named without a prefix. */
  unprefixedHint?: string;
}

/** What one search's filter accepts: its fields, and its grammar's variations. */
export interface Dialect extends FieldVocabulary {
  /** `and-only`: comparisons joined by AND, without OR, NOT or parentheses. */
  logic: "boolean" | "and-only";
  /** Whether string values may be double-quoted as well as single-quoted. */
  doubleQuotedStrings: boolean;
}

export const RUN_DIALECT: Dialect = {
  name: "runs",
  entities: {
    metric: "metric",
    metrics: "metric",
    param: "param",
    params: "param",
    parameter: "param",
    parameters: "param",
    tag: "tag",
    tags: "tag",
    attribute: "attribute",
    attributes: "attribute",
    attr: "attribute",
    run: "attribute",
    dataset: "dataset",
    datasets: "dataset",
  },
  attributes: {
    status: { key: "status", type: "string", inAllowed: false, orderable: true },
    run_name: { key: "run_name", type: "string", inAllowed: false, orderable: true },
    start_time: { key: "start_time", type: "numeric", inAllowed: false, orderable: true },
    end_time: { key: "end_time", type: "numeric", inAllowed: false, orderable: true },
    run_id: { key: "run_id", type: "string", inAllowed: true, orderable: true },
    artifact_uri: { key: "artifact_uri", type: "string", inAllowed: false, orderable: true },
  },
  keyed: ["metric", "param", "tag"],
  keyedOrderable: true,
  logic: "boolean",
  doubleQuotedStrings: true,
  identifiers:
    "an identifier such as metrics.<key>, params.<key>, tags.<key> or an attribute (status, run_name, start_time, end_time, run_id, artifact_uri)",
  unprefixedHint: "metrics, params and tags need their prefix (metrics.<key>)",
};

export const EXPERIMENT_DIALECT: Dialect = {
  name: "experiments",
  entities: { tag: "tag", tags: "tag", attribute: "attribute", attributes: "attribute", attr: "attribute" },
  attributes: {
    name: { key: "name", type: "string", inAllowed: false, orderable: true },
    experiment_id: { key: "experiment_id", type: "id", inAllowed: true, orderable: true },
    creation_time: { key: "creation_time", type: "numeric", inAllowed: false, orderable: true },
    last_update_time: { key: "last_update_time", type: "numeric", inAllowed: false, orderable: true },
  },
  keyed: ["tag"],
  keyedOrderable: false,
  logic: "boolean",
  doubleQuotedStrings: true,
  identifiers: "an identifier such as name, tags.<key>, creation_time, last_update_time or experiment_id",
};

const REGISTRY_FIELD = { type: "string", inAllowed: false, orderable: false } as const;

/**
 * What registry filters share: `tag.<key>` / `tags.<key>` (MLflow's registry stores accept both)
 * with =, !=, LIKE and ILIKE; comparisons joined by AND; strings in single quotes. MLflow 3's
 * clients add `tag.\`mlflow.prompt.is_prompt\` != 'true'` to every registered-models/search.
 */
const REGISTRY_SEARCH = {
  entities: { tag: "tag", tags: "tag" },
  keyed: ["tag"],
  keyedOperators: ["=", "!=", "LIKE", "ILIKE"],
  keyedOrderable: false,
  logic: "and-only",
  doubleQuotedStrings: false,
} as const;

export const REGISTERED_MODEL_DIALECT: Dialect = {
  ...REGISTRY_SEARCH,
  name: "registered models",
  attributes: { name: { ...REGISTRY_FIELD, key: "name", operators: ["=", "LIKE", "ILIKE"] } },
  identifiers: "an identifier: name or tags.<key>",
};

export const MODEL_VERSION_DIALECT: Dialect = {
  ...REGISTRY_SEARCH,
  name: "model versions",
  attributes: {
    name: { ...REGISTRY_FIELD, key: "name", operators: ["="] },
    run_id: { ...REGISTRY_FIELD, key: "run_id", operators: ["="] },
    source_path: { ...REGISTRY_FIELD, key: "source_path", operators: ["="] },
  },
  identifiers: "an identifier: name, run_id, source_path or tags.<key>",
};

const LOGGED_MODEL_STRING = { type: "string", inAllowed: true, orderable: false } as const;
const LOGGED_MODEL_TIME = { type: "numeric", inAllowed: false, orderable: false } as const;

/**
 * Logged-model filters (MLflow 3's logged-models/search): comparisons joined by AND, on
 * `metrics.<key>`, `params.<key>`, `tags.<key>` and the model's attributes, with MLflow's aliases
 * of the timestamps. `status` takes =, !=, IN and NOT IN with MLflow's status names (checked by
 * the compiler). order_by of logged models has its own structured form (not parsed here).
 */
export const LOGGED_MODEL_DIALECT: Dialect = {
  name: "logged models",
  entities: { metrics: "metric", params: "param", tags: "tag", attributes: "attribute" },
  attributes: {
    model_id: { ...LOGGED_MODEL_STRING, key: "model_id" },
    experiment_id: { ...LOGGED_MODEL_STRING, key: "experiment_id" },
    name: { ...LOGGED_MODEL_STRING, key: "name" },
    artifact_location: { ...LOGGED_MODEL_STRING, key: "artifact_location" },
    model_type: { ...LOGGED_MODEL_STRING, key: "model_type" },
    source_run_id: { ...LOGGED_MODEL_STRING, key: "source_run_id" },
    status_message: { ...LOGGED_MODEL_STRING, key: "status_message" },
    status: { ...LOGGED_MODEL_STRING, key: "status", operators: ["=", "!="] },
    creation_timestamp_ms: { ...LOGGED_MODEL_TIME, key: "creation_timestamp_ms" },
    creation_timestamp: { ...LOGGED_MODEL_TIME, key: "creation_timestamp_ms" },
    creation_time: { ...LOGGED_MODEL_TIME, key: "creation_timestamp_ms" },
    last_updated_timestamp_ms: { ...LOGGED_MODEL_TIME, key: "last_updated_timestamp_ms" },
    last_updated_timestamp: { ...LOGGED_MODEL_TIME, key: "last_updated_timestamp_ms" },
  },
  keyed: ["metric", "param", "tag"],
  keyedOrderable: false,
  logic: "and-only",
  doubleQuotedStrings: true,
  identifiers:
    "an identifier such as metrics.<key>, params.<key>, tags.<key> or an attribute (name, model_id, status, source_run_id, creation_timestamp_ms, ...)",
};
