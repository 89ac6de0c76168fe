/**
 * Classification: api-smart-diff's own classes, plus the few rules it lacks for this project.
 * Every rule is listed here, with the reason, and named in the JSON report when it applied.
 */
import type { Change, ChangeKind, Classification } from "./types.js";

/** The classes api-smart-diff gives (`DiffType`). */
export type LibraryClass = "breaking" | "non-breaking" | "annotation" | "unclassified" | "deprecated";

export interface ClassificationRule {
  id: string;
  reason: string;
  applies: (change: DraftClassification) => boolean;
  classification: Classification;
}

export interface DraftClassification {
  kind: ChangeKind;
  library?: LibraryClass;
  /** For type changes: whether the base type changed (integer -> string), not only the format. */
  baseTypeChanged?: boolean;
}

export const RULES: readonly ClassificationRule[] = [
  {
    id: "type-change-is-breaking",
    reason:
      "A field whose type changes (int64 -> string) breaks typed clients in both directions: a response value " +
      "no longer parses as before, a request value must be sent differently. api-smart-diff calls a response or " +
      "query-parameter type change non-breaking.",
    applies: (c) => c.kind === "type-changed" && c.baseTypeChanged === true,
    classification: "breaking",
  },
  {
    id: "removed-field-is-breaking",
    reason:
      "A field removed from a response breaks clients that read it; removed from a request, the server silently " +
      "drops what existing clients send. api-smart-diff calls both non-breaking.",
    applies: (c) => c.kind === "field-removed",
    classification: "breaking",
  },
  {
    id: "moved-path-is-breaking",
    reason: "An operation whose path changes (the API prefix moved) is not found by existing clients at the old path.",
    applies: (c) => c.kind === "path-moved",
    classification: "breaking",
  },
  {
    id: "deprecation-is-annotation",
    reason:
      "A deprecation changes no behaviour yet; it announces a future removal. api-smart-diff has a class of its own " +
      "for it (`deprecated`); the reports list deprecations among the annotations, but never fold them away.",
    applies: (c) => c.kind === "deprecated" || c.library === "deprecated",
    classification: "annotation",
  },
  {
    id: "unclassified-is-annotation",
    reason:
      "api-smart-diff leaves some document-level changes (the tag list) unclassified; they only affect documentation.",
    applies: (c) => c.library === "unclassified",
    classification: "annotation",
  },
];

const FROM_LIBRARY: Record<LibraryClass, Classification> = {
  breaking: "breaking",
  "non-breaking": "non-breaking",
  annotation: "annotation",
  unclassified: "annotation",
  deprecated: "annotation",
};

export function classify(change: DraftClassification): { classification: Classification; rule?: string } {
  const rule = RULES.find((r) => r.applies(change));
  if (rule) return { classification: rule.classification, rule: rule.id };
  return { classification: change.library ? FROM_LIBRARY[change.library] : "non-breaking" };
}

const SEVERITY: Record<Classification, number> = { breaking: 0, "non-breaking": 1, annotation: 2 };

export function severity(classification: Classification): number {
  return SEVERITY[classification];
}

/** The more severe of two classifications. */
export function worst(a: Classification, b: Classification): Classification {
  return SEVERITY[a] <= SEVERITY[b] ? a : b;
}

/** The most severe library class of a group (for grouped changes). */
export function worstLibrary(classes: ReadonlyArray<LibraryClass | undefined>): LibraryClass | undefined {
  const order: LibraryClass[] = ["breaking", "non-breaking", "deprecated", "annotation", "unclassified"];
  return order.find((c) => classes.includes(c));
}

/** The gate of `--fail-on`: a class, or `none`. */
export type FailOn = Classification | "none";

/**
 * Whether a change trips `--fail-on`. An acknowledged breaking change counts as non-breaking: it
 * passes `--fail-on breaking`, and still fails `--fail-on non-breaking`.
 */
export function countsAsFailure(change: Pick<Change, "classification" | "acknowledged">, failOn: FailOn): boolean {
  if (failOn === "none") return false;
  const classification =
    change.classification === "breaking" && change.acknowledged ? "non-breaking" : change.classification;
  return SEVERITY[classification] <= SEVERITY[failOn];
}
