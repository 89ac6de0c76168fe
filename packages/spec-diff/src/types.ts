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

/** Where a change is written: a line of the YAML (or JSON) file as written, `$ref`s followed. */
export interface Location {
  /** The file, relative to the working directory (or the URL). */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** The git ref the file was read at, when it was (`origin/main`). */
  ref?: string;
  /** False when the walk could not reach the node itself in this file: the location is its nearest ancestor. */
  exact?: false;
}

/** A breaking change acknowledged in the new spec with `x-breaking-change-acknowledged`. */
export interface Acknowledgement {
  reason: string;
  /** What the acknowledgement names (`change:`), when it names something. */
  change?: string;
  /** Where the acknowledgement is written. */
  at?: Location;
}

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
  /** Where the change is in the old document (or the nearest ancestor when the node is new). */
  before?: Location;
  /** Where the change is in the new document (or the nearest ancestor when the node is gone). */
  after?: Location;
  /** Present when the change is breaking and acknowledged in the new spec: it passes `--fail-on breaking`. */
  acknowledged?: Acknowledgement;
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
  /** Breaking changes acknowledged in the new spec (counted among `breaking` too). */
  acknowledged: number;
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
