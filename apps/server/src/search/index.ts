/**
 * The search engine of runs/search (revision C filter strings and revisions A/B
 * anded_expressions: two front ends, one AST, one compiler), experiments/search and the registry
 * searches (registered-models/search, model-versions/search): one lexer, one filter parser, one
 * order_by parser (order-by.ts), one AST.
 *
 *   parseRunFilter(text)            -> FilterAst | undefined
 *   andedExpressionsToFilter(json)  -> FilterAst | undefined
 *   searchRuns(knex, options)       -> { runIds, nextPageToken? }
 *   searchExperimentRows(knex, options, columns) -> { rows, nextPageToken? }
 *   searchRegisteredModelRows / searchModelVersionRows(knex, options) -> { rows, nextPageToken? }
 */
export type * from "./ast.js";
export { describeToken, tokenize, type Fail, type Token, type TokenKind } from "./filter-lexer.js";
export {
  EXPERIMENT_ATTRIBUTES,
  FILTER_LIMITS,
  parseExperimentFilter,
  parseLoggedModelFilter,
  parseModelVersionFilter,
  parseRegisteredModelFilter,
  parseRunFilter,
  RUN_ATTRIBUTES,
} from "./filter-parser.js";
export { ORDER_BY_LIMITS, parseExperimentOrderBy, parseRunOrderBy } from "./order-by.js";
export { andedExpressionsToFilter, escapeLike } from "./anded-expressions.js";
export {
  compileRegistryFilter,
  searchModelVersionRows,
  searchRegisteredModelRows,
  type ModelSortColumn,
  type RegistrySearchOptions,
  type RegistrySearchResult,
  type VersionSortColumn,
} from "./registry-search.js";
export {
  compileRunFilter,
  MAX_RUN_SEARCH_RESULTS,
  runSortColumns,
  searchRuns,
  type RunSearchOptions,
  type RunSearchResult,
} from "./run-search.js";
export {
  compileExperimentFilter,
  DEFAULT_EXPERIMENT_ORDER,
  experimentSortColumns,
  MAX_EXPERIMENT_SEARCH_RESULTS,
  searchExperimentRows,
  type ExperimentSearchOptions,
} from "./experiment-search.js";
export type { SortColumn, SortType, SqlFragment } from "./keyset.js";
export {
  decodeOffsetToken,
  decodePageToken,
  encodeOffsetToken,
  encodePageToken,
  queryFingerprint,
} from "./page-token.js";
