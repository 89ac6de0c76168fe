import { useMemo, useRef } from "react";
import type { KeyKind } from "./columns";

/**
 * Every key seen in the runs of these experiments so far: a filter that matches nothing (or fails)
 * must not empty the column picker or the filter's completion.
 */
export function useSeenKeys(current: Record<KeyKind, string[]>, scope: string): Record<KeyKind, string[]> {
  const seen = useRef<{ scope: string; keys: Record<KeyKind, Set<string>> }>({
    scope,
    keys: { metrics: new Set(), params: new Set(), tags: new Set() },
  });
  if (seen.current.scope !== scope)
    seen.current = { scope, keys: { metrics: new Set(), params: new Set(), tags: new Set() } };
  const signature = JSON.stringify(current);
  // biome-ignore lint/correctness/useExhaustiveDependencies: signature is current by value; scope resets the keys seen
  return useMemo(() => {
    const keys = seen.current.keys;
    for (const kind of Object.keys(keys) as KeyKind[]) for (const key of current[kind]) keys[kind].add(key);
    const sorted = (s: Set<string>) => [...s].sort((a, b) => a.localeCompare(b));
    return { metrics: sorted(keys.metrics), params: sorted(keys.params), tags: sorted(keys.tags) };
  }, [signature, scope]);
}
