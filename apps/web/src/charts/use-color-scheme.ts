import { useSyncExternalStore } from "react";

const QUERY = "(prefers-color-scheme: dark)";

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia?.(QUERY);
  media?.addEventListener("change", onChange);
  return () => media?.removeEventListener("change", onChange);
}

/** "dark" or "light", following the OS setting as it changes (canvas charts redraw in its colours). */
export function useColorScheme(): "dark" | "light" {
  return useSyncExternalStore(
    subscribe,
    () => (window.matchMedia?.(QUERY).matches ? "dark" : "light"),
    () => "light",
  );
}
