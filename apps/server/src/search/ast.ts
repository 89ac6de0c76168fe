/**
 * The filter AST shared by every front end of the search engine: revision C filter strings
 * (runs/search, experiments/search) and revisions A/B `anded_expressions`.
 *
 * Fields are already resolved (prefix aliases such as `metric.`/`params.`/`attr.` are gone) and
 * every comparison is already type-checked: numeric fields carry a number, string fields a string.
 */

import type { components } from "@tracker/types/ext";

/** Attributes of a run that a filter or an order_by may name: spec/ext.yaml's RunSearchAttribute. */
export type RunAttribute = components["schemas"]["RunSearchAttribute"];

/** Attributes of an experiment that a filter or an order_by may name. */
export type ExperimentAttribute = "name" | "experiment_id" | "creation_time" | "last_update_time";

/** Fields of registered-models/search and model-versions/search filters. */
export type RegistryAttribute = "name" | "run_id" | "source_path";

/** Attributes of a logged model (MLflow 3) that a filter may name: columns of logged_models. */
export type LoggedModelAttribute =
  | "model_id"
  | "experiment_id"
  | "name"
  | "artifact_location"
  | "creation_timestamp_ms"
  | "last_updated_timestamp_ms"
  | "status"
  | "model_type"
  | "source_run_id"
  | "status_message";

/** What `dataset.<field>` may name (MLflow 2.4+): a run's input datasets by name or digest, or the context tag of the input. */
export type DatasetField = "name" | "digest" | "context";

/** Every attribute a filter or an order_by of runs, experiments, registry or logged-model searches may name. */
export type FilterAttribute = RunAttribute | ExperimentAttribute | RegistryAttribute | LoggedModelAttribute;

/**
 * What a comparison or an order term is about, in a search whose attributes are `Attribute`.
 * `key` of metric/param/tag is the user's key, verbatim.
 */
export type FieldOf<Attribute extends string> =
  | { entity: "metric"; key: string }
  | { entity: "param"; key: string }
  | { entity: "tag"; key: string }
  | { entity: "dataset"; key: DatasetField }
  | { entity: "attribute"; key: Attribute };

/** A field of a filter or of an order_by of the filter-string searches. */
export type FilterField = FieldOf<FilterAttribute>;

/** Operators of numeric comparisons (`<>` in the text is normalised to `!=`). */
export type NumericOperator = "=" | "!=" | ">" | ">=" | "<" | "<=";

/** Operators of string comparisons. LIKE is case-sensitive, ILIKE case-insensitive. */
export type StringOperator = "=" | "!=" | "LIKE" | "ILIKE" | "NOT LIKE" | "NOT ILIKE";

export type FilterAst =
  /** All operands hold (at least two operands). */
  | { type: "and"; operands: FilterAst[] }
  /** At least one operand holds (at least two operands). */
  | { type: "or"; operands: FilterAst[] }
  | { type: "not"; operand: FilterAst }
  /** A metric or numeric attribute compared with a number. */
  | { type: "numeric"; field: FilterField; operator: NumericOperator; value: number }
  /** A param, tag or string attribute compared with a string. */
  | { type: "string"; field: FilterField; operator: StringOperator; value: string }
  /** `field IN (...)` / `field NOT IN (...)` over strings. */
  | { type: "in"; field: FilterField; negated: boolean; values: string[] };

/** One order_by item: a field and a direction. */
export interface OrderTerm<Field = FilterField> {
  field: Field;
  ascending: boolean;
}

/*
 * Semantics of comparisons on keyed fields (metrics, params, tags) and on nullable attributes
 * (a run's end_time): a comparison holds only when the key exists (the attribute is set) and the
 * comparison is true. So `params.p != 'x'`, `params.p NOT LIKE 'x'` and `params.p NOT IN ('x')`
 * require p to exist (as MLflow does), while `NOT params.p = 'x'` also holds for runs without p.
 * Logic is two-valued: NOT, AND and OR never see an SQL NULL.
 */
