export { diffDocuments, type DiffOptions } from "./diff.js";
export { compareSpecs, type CompareOptions } from "./compare.js";
export { loadSpec, bundleFile, parseSpecInput, type LoadedSpec, type SpecInput } from "./load.js";
export { renderMarkdown, type MarkdownOptions } from "./markdown.js";
export { renderRevisionsDocument, REVISIONS_DOCUMENT } from "./revisions.js";
export { RULES, countsAsFailure, type ClassificationRule } from "./classify.js";
export type { Change, ChangeKind, Classification, OperationReport, PrefixMove, Report, Summary } from "./types.js";
