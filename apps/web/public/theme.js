// Runs in <head> before the page is drawn: applies the theme chosen in the UI (localStorage
// "tracker.theme": "light" or "dark"; absent = follow the OS), so a reload never flashes the other one.
// Kept in step with src/theme/theme.ts.
try {
  const theme = localStorage.getItem("tracker.theme");
  if (theme === "light" || theme === "dark") document.documentElement.setAttribute("data-theme", theme);
} catch {
  // Storage refused: the OS setting applies.
}
