// The colour theme: light, dark, or the OS setting ("system"). The choice is kept in localStorage
// and shown as `data-theme` on <html>, which public/theme.js sets before the first paint.
import { useSyncExternalStore } from "react";

export type ThemeChoice = "system" | "light" | "dark";
export const THEME_KEY = "tracker.theme";
const DARK_QUERY = "(prefers-color-scheme: dark)";

export function readThemeChoice(storage: Pick<Storage, "getItem"> = localStorage): ThemeChoice {
  try {
    const value = storage.getItem(THEME_KEY);
    return value === "light" || value === "dark" ? value : "system";
  } catch {
    return "system";
  }
}

/** Remembers the choice and applies it to the page at once. */
export function applyThemeChoice(
  choice: ThemeChoice,
  storage: Pick<Storage, "setItem" | "removeItem"> = localStorage,
): void {
  try {
    if (choice === "system") storage.removeItem(THEME_KEY);
    else storage.setItem(THEME_KEY, choice);
  } catch {
    // Not remembered; still applied below.
  }
  if (choice === "system") document.documentElement.removeAttribute("data-theme");
  else document.documentElement.setAttribute("data-theme", choice);
}

/** The scheme in effect: the chosen one, or the OS's when following it. */
export function effectiveScheme(): "dark" | "light" {
  const chosen = document.documentElement.getAttribute("data-theme");
  if (chosen === "dark" || chosen === "light") return chosen;
  return window.matchMedia?.(DARK_QUERY).matches ? "dark" : "light";
}

/** Calls `onChange` when the OS setting or the chosen theme changes. */
export function subscribeScheme(onChange: () => void): () => void {
  const media = window.matchMedia?.(DARK_QUERY);
  media?.addEventListener("change", onChange);
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  return () => {
    media?.removeEventListener("change", onChange);
    observer.disconnect();
  };
}

/** The choice as stored, re-read when it changes (the toggle). */
export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(
    subscribeScheme,
    () => readThemeChoice(),
    () => "system",
  );
}
