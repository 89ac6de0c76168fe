import { formatTime } from "./format";

/**
 * A time as formatTime writes it (`2026-11-26 04:31:24`) that a narrow column breaks, if at all,
 * only between the date and the time of day: never inside either.
 */
export function DateTime({ ms }: { ms: number | undefined | null }) {
  const text = formatTime(ms);
  const space = text.indexOf(" ");
  if (space < 0) return <>{text}</>;
  return (
    <span className="date-time">
      <span>{text.slice(0, space)}</span> <span>{text.slice(space + 1)}</span>
    </span>
  );
}
