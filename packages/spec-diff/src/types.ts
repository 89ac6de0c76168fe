/** The report's data model: what `--format json` prints and what the markdown is rendered from. */

/** How a change affects existing clients. */
export type Classification = "breaking" | "non-breaking" | "annotation";

export const CLASSIFICATIONS: readonly Classification[] = ["breaking", "non-breaking", "annotation"];

export type ChangeKind =
  | "operation-added"
  | "operation-removed"
  | "path-moved"
  | "parameter-added"
  | "parameter-removed"
  | "request-body-added"
  | "request-body-removed"
  | "response-added"
  | "response-removed"
  | "content-type-added"
  | "content-type-removed"
  | "field-added"
  | "field-removed"
  | "type-changed"
  | "enum-changed"
  | "required-changed"
  | "deprecated"
  | "constraint-changed"
  | "documentation"
  | "other";

export interface Change {
  classification: Classification;
  kind: ChangeKind;
  /** Where in the operation: `operation`, `query parameter`, `request body`, `response 200`, or `document`. */
  where: string;
  /** The request or response field (`run.info.experiment_id`) or parameter name, when there is one. */
  field?: string;
  /** One line for humans. */
  message: string;
  /** The classification api-smart-diff gave, before this package's rules (absent for changes it does not report). */
  library?: string;
  /** The rule of this package that changed the library's classification, if any. */
  rule?: string;
  /** JSON paths (in the normalised "before" document) of the library diffs this change stands for. */
  paths: Array<Array<string | number>>;
}

export interface OperationReport {
  /** `POST experiments/create`: method and path below the API prefix. */
  key: string;
  method: string;
  operationId?: string;
  status: "added" | "removed" | "changed";
  pathBefore?: string;
  pathAfter?: string;
  changes: Change[];
}

export interface PrefixMove {
  from: string;
  to: string;
  operations: number;
}

export interface Summary {
  breaking: number;
  "non-breaking": number;
  annotation: number;
  deprecations: number;
  operationsAdded: number;
  operationsRemoved: number;
  operationsChanged: number;
}

export interface Report {
  from: string;
  to: string;
  summary: Summary;
  prefixMoves: PrefixMove[];
  /** Changes outside the operations: info, servers, security, tags. */
  document: Change[];
  operations: OperationReport[];
}
