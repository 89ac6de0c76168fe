import type { RunWithInputs as Run, ViewType } from "@tracker-ml/client";
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "../../api/client";
import { useAuthEpoch } from "../../api/use-async";
import { noteError } from "../../api/client";
import { toError } from "../../api/use-async";

export interface RunQuery {
  experimentIds: string[];
  filter?: string;
  orderBy?: string[];
  viewType: ViewType;
  pageSize: number;
  /** Only these keys are fetched for each run (system tags always come). */
  metricKeys: string[];
  paramKeys: string[];
  tagKeys: string[];
  /** Runs carry their inputs (datasets) too. */
  includeInputs?: boolean;
}

export interface RunPages {
  runs: Run[];
  error: Error | undefined;
  loading: boolean;
  done: boolean;
  /** Fetches the next page (page token) if there is one and none is under way. */
  more: () => void;
  /** Re-fetches the first page and merges it in, keeping every row on screen meanwhile. */
  refresh: () => Promise<void>;
}

/** Runs of a search with only the shown columns, a page at a time through the client's page tokens. */
export function useRunPages(query: RunQuery): RunPages {
  const [runs, setRuns] = useState<Run[]>([]);
  const [error, setError] = useState<Error | undefined>();
  const [loading, setLoading] = useState(false);
  const [done, setDone] = useState(false);
  const pages = useRef<AsyncGenerator<{ items: Run[]; nextPageToken?: string }> | undefined>(undefined);
  const busy = useRef(false);
  const generation = useRef(0);
  const epoch = useAuthEpoch();
  const key = JSON.stringify(query);

  const more = useCallback(() => {
    const iterator = pages.current;
    if (!iterator || busy.current) return;
    busy.current = true;
    setLoading(true);
    const mine = generation.current;
    iterator.next().then(
      (result) => {
        if (mine !== generation.current) return;
        busy.current = false;
        setLoading(false);
        if (result.done) {
          setDone(true);
          return;
        }
        // The last page carries no token: nothing more to fetch.
        if (!result.value.nextPageToken) setDone(true);
        setRuns((previous) => appendPage(previous, result.value.items));
      },
      (failure: unknown) => {
        if (mine !== generation.current) return;
        noteError(failure);
        busy.current = false;
        setLoading(false);
        setError(toError(failure));
        setDone(true);
      },
    );
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: key is the query by value; the query is read when it changes
  useEffect(() => {
    generation.current += 1;
    busy.current = false;
    setRuns([]);
    setError(undefined);
    setDone(query.experimentIds.length === 0);
    if (query.experimentIds.length === 0) {
      pages.current = undefined;
      return;
    }
    pages.current = api().searchRunsColumns(query.experimentIds, query).pages();
    more();
  }, [key, epoch, more]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: key is the query by value; the query is read when it changes
  const refresh = useCallback(async () => {
    // Not while a page is being fetched: its answer is at least as fresh, and the two would race.
    if (query.experimentIds.length === 0 || busy.current) return;
    const mine = generation.current;
    try {
      // One page from the top: new runs and changed ones there replace their rows; rows further
      // down keep their place (so a refresh costs one page however far the user scrolled).
      const first = await api().searchRunsColumns(query.experimentIds, query).pages().next();
      if (mine !== generation.current || first.done || busy.current) return;
      setRuns((previous) => mergeFirstPage(previous, first.value.items));
      setError(undefined);
    } catch (failure) {
      noteError(failure);
      if (mine === generation.current) setError(toError(failure));
    }
  }, [key]);

  return { runs, error, loading, done, more, refresh };
}

/**
 * A further page after the rows already loaded. A run already on screen is not added twice: a live
 * refresh may have brought it in meanwhile, and two rows with one run id would share a React key.
 */
export function appendPage(previous: readonly Run[], page: readonly Run[]): Run[] {
  const seen = new Set(previous.map((run) => run.info.run_id));
  return [...previous, ...page.filter((run) => !seen.has(run.info.run_id))];
}

/** The first page as fetched again, then every other loaded row in its old order. */
export function mergeFirstPage(previous: readonly Run[], firstPage: readonly Run[]): Run[] {
  const fresh = new Set(firstPage.map((run) => run.info.run_id));
  return [...firstPage, ...previous.filter((run) => !fresh.has(run.info.run_id))];
}
