// View state kept in the URL's query string, so reload, share, back and forward work. Lists are
// comma-separated (run ids, experiment ids and metric/param/tag keys hold no commas).
import { useCallback, useMemo } from "react";
import { useLocation, useSearch } from "wouter";

export type SearchPatch = Record<string, string | readonly string[] | number | boolean | undefined>;

/** The query string `search` with `patch` applied: undefined, "" , [] and false remove a key. */
export function patchSearch(search: string, patch: SearchPatch): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(patch)) {
    const text = Array.isArray(value)
      ? value.join(",")
      : value === true
        ? "1"
        : value === false || value === undefined
          ? ""
          : String(value);
    if (text === "") params.delete(key);
    else params.set(key, text);
  }
  params.sort();
  const out = params.toString();
  return out ? `?${out}` : "";
}

/** The comma-separated list under `key` ([] when absent). */
export function readList(params: URLSearchParams, key: string): string[] {
  const raw = params.get(key);
  return raw ? raw.split(",").filter((item) => item !== "") : [];
}

export interface SearchState {
  params: URLSearchParams;
  get(key: string): string | undefined;
  list(key: string): string[];
  flag(key: string): boolean;
  /** Changes the URL; `replace` for changes that should not make a history entry (typing). */
  set(patch: SearchPatch, options?: { replace?: boolean }): void;
}

export function useSearchState(): SearchState {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const set = useCallback(
    (patch: SearchPatch, options: { replace?: boolean } = {}) => {
      navigate(`${location}${patchSearch(window.location.search, patch)}`, { replace: options.replace ?? false });
    },
    [location, navigate],
  );
  return searchStateOf(params, set);
}

/** The state of a query string outside React (a page's early requests); `set` changes nothing unless given. */
export function searchStateOf(params: URLSearchParams, set: SearchState["set"] = () => {}): SearchState {
  return {
    params,
    get: (key) => params.get(key) ?? undefined,
    list: (key) => readList(params, key),
    flag: (key) => params.get(key) === "1",
    set,
  };
}

/** A link target with a query string built from `patch`. */
export function href(path: string, patch: SearchPatch = {}): string {
  return `${path}${patchSearch("", patch)}`;
}
