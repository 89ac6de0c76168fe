import { applyThemeChoice, type ThemeChoice, useThemeChoice } from "./theme";

/** The header's theme menu: follow the OS, light or dark. */
export function ThemeSelect() {
  const choice = useThemeChoice();
  return (
    <label className="theme-select">
      <select aria-label="Theme" value={choice} onChange={(e) => applyThemeChoice(e.target.value as ThemeChoice)}>
        <option value="system">◐ System</option>
        <option value="light">☀ Light</option>
        <option value="dark">☾ Dark</option>
      </select>
    </label>
  );
}
