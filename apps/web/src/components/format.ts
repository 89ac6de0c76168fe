// Formatting of times, durations, sizes and values for display.

export function formatTime(ms: number | undefined | null): string {
  if (ms === undefined || ms === null || !Number.isFinite(Number(ms)) || Number(ms) <= 0) return "—";
  const d = new Date(Number(ms));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** "1h 2m", "3.4s", ... from a start and an end (now when the run is still going). */
export function formatDuration(
  start: number | undefined | null,
  end: number | undefined | null,
  now: number = Date.now(),
): string {
  if (!start) return "—";
  const ms = Math.max(0, Number(end || now) - Number(start));
  if (ms < 1000) return `${ms}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${Math.floor(s % 60)}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

export function formatSize(bytes: number | undefined | null): string {
  if (bytes === undefined || bytes === null) return "";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = Number(bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

export function formatValue(value: number | undefined): string {
  if (value === undefined) return "";
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  // At most 5 significant digits in exponent form, without trailing zeros: -8.1e-4, not -8.1000e-4.
  return abs !== 0 && (abs < 1e-3 || abs >= 1e6)
    ? Number(value.toPrecision(5)).toExponential()
    : String(Number(value.toPrecision(6)));
}
