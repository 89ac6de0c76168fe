import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { isAuthRequired, noteError, onAuthChange } from "./client";

export interface AsyncState<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  /** Runs the loader again, keeping the current data on screen until the new data arrives. */
  reload: () => void;
}

/** The authentication epoch: it changes when a token is given, so loaders run again. */
export function useAuthEpoch(): number {
  const epoch = useRef(0);
  const required = useSyncExternalStore(onAuthChange, isAuthRequired);
  const last = useRef(required);
  if (last.current !== required) {
    last.current = required;
    if (!required) epoch.current += 1;
  }
  return epoch.current;
}

/** Loads data with `load` whenever `deps` change; errors are kept for display, never thrown. */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): AsyncState<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const epoch = useAuthEpoch();
  const loadRef = useRef(load);
  loadRef.current = load;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller lists the dependencies of load (read through a ref); tick and epoch re-run it on refresh and sign-in
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    loadRef.current().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => {
        noteError(error);
        if (live) setState((s) => ({ data: s.data, error: toError(error), loading: false }));
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, tick, epoch]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Runs an action, returning its error (after noting it for authentication) instead of throwing. */
export async function attempt(action: () => Promise<unknown>): Promise<Error | undefined> {
  try {
    await action();
    return undefined;
  } catch (error) {
    noteError(error);
    return toError(error);
  }
}
