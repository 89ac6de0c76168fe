import { useEffect, useRef } from "react";

export const LIVE_INTERVAL_MS = 5000;

/**
 * Calls `refresh` every few seconds while `active` (some run is RUNNING) and not `paused`; one
 * refresh at a time. Returns whether live refresh is running.
 */
export function useLiveRefresh(
  active: boolean,
  paused: boolean,
  refresh: () => Promise<void>,
  intervalMs = LIVE_INTERVAL_MS,
): boolean {
  const current = useRef(refresh);
  current.current = refresh;
  const on = active && !paused;
  useEffect(() => {
    if (!on) return;
    let busy = false;
    const timer = setInterval(() => {
      if (busy || document.hidden) return;
      busy = true;
      void current.current().finally(() => {
        busy = false;
      });
    }, intervalMs);
    return () => clearInterval(timer);
  }, [on, intervalMs]);
  return on;
}
