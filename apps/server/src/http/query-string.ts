import qs from "qs";

/**
 * At most this many values of one repeated query parameter become an array. qs's default (20)
 * turned a 21st `run_ids=` into an object keyed by index ("type 'dict'"), while the UI and
 * MLflow's clients send up to 100 run ids (get-history-bulk-interval's own limit). Kept bounded:
 * qs walks an array up to its highest index, so `k[1000000]=x` must not become an array that long.
 */
export const QUERY_ARRAY_LIMIT = 1000;

/**
 * Express's "extended" query parser (qs) with a higher array limit: `k=a&k=b`, `k[]=a` and
 * `k[0]=a` all give arrays, for every repeated parameter.
 */
export function parseQueryString(query: string): qs.ParsedQs {
  return qs.parse(query, { allowPrototypes: true, arrayLimit: QUERY_ARRAY_LIMIT, parameterLimit: 10_000 });
}
