/**
 * Runs recently seen active, so that each artifact upload does not cost a database query (many
 * small files of one run arrive in parallel). Deleting a run or an experiment in this process
 * clears it at once; another worker process may take up to TTL_MS to notice a deletion.
 */

const TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;
const seen = new Map<string, number>();

export function isKnownActive(runId: string, now = Date.now()): boolean {
  const at = seen.get(runId);
  return at !== undefined && now - at < TTL_MS;
}

export function rememberActive(runId: string, now = Date.now()): void {
  if (seen.size >= MAX_ENTRIES) seen.clear();
  seen.set(runId, now);
}

/** After any lifecycle change (a run or an experiment deleted or restored). */
export function forgetActiveRuns(): void {
  seen.clear();
}
