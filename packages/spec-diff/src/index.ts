export { diffDocuments, type DiffOptions } from "./diff.js";
export {
  compareSpecs,
  compareWithRef,
  type CompareOptions,
  type FileComparison,
  type RefCompareOptions,
  type RefComparison,
} from "./compare.js";
export { loadSpec, bundleFile, parseSpecInput, type LoadedSpec, type LoadOptions, type SpecInput } from "./load.js";
export { bundleSources } from "./bundle.js";
export { loadSources, type SourceFile, type SourceReader, type SourceSet } from "./sources.js";
export { locate } from "./locate.js";
export { ACKNOWLEDGE_KEY } from "./acknowledge.js";
export { renderMarkdown, type MarkdownOptions } from "./markdown.js";
export { renderText, wantsColour, type TextOptions } from "./text.js";
export { renderGithubAnnotations } from "./github.js";
export { formatLocation, formatChangeLocations } from "./location.js";
export { RULES, countsAsFailure, type ClassificationRule, type FailOn } from "./classify.js";
export type {
  Acknowledgement,
  Change,
  ChangeKind,
  Classification,
  Location,
  OperationReport,
  PrefixMove,
  Report,
  Summary,
} from "./types.js";
