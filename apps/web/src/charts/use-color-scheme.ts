import { useSyncExternalStore } from "react";
import { effectiveScheme, subscribeScheme } from "../theme/theme";

/** "dark" or "light": the theme chosen in the UI, else the OS setting, as either changes (canvas charts redraw in its colours). */
export function useColorScheme(): "dark" | "light" {
  return useSyncExternalStore(subscribeScheme, effectiveScheme, () => "light");
}
