// The request fields every search (experiments, runs, registered models, model versions) shares.

/** The options of a search that the request carries as they are. */
export interface SearchRequestOptions {
  filter?: string;
  orderBy?: string[];
  pageSize?: number;
}

/** The filter, order_by, max_results and page_token of one page's request. */
export function searchRequestFields(
  options: SearchRequestOptions,
  pageToken: string | undefined,
  defaultPageSize?: number,
): { filter?: string; order_by?: string[]; max_results?: number; page_token?: string } {
  return {
    filter: options.filter,
    order_by: options.orderBy,
    max_results: options.pageSize ?? defaultPageSize,
    page_token: pageToken,
  };
}
