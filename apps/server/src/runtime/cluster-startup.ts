/**
 * The start-up line under node:cluster: every worker tells the primary that it listens, and the
 * primary logs the first one (cli/cluster.ts), so that the line says the server answers as soon as
 * any worker does, once per start.
 */

/** A worker's message to the primary that it listens, with its start-up line's fields. */
interface StartupMessage {
  trackerStartup: Record<string, unknown>;
}

export const startupOf = (message: unknown): Record<string, unknown> | undefined =>
  typeof message === "object" && message !== null && "trackerStartup" in message
    ? (message as StartupMessage).trackerStartup
    : undefined;

/** Tells the primary that this worker listens (the primary logs the first such line only). */
export function announceStartup(startup: Record<string, unknown>): void {
  const message: StartupMessage = { trackerStartup: startup };
  process.send?.(message);
}
