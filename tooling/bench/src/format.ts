/** Number formats of the bench's tables and target lines. */

/** Milliseconds: two decimals under 10, one above. */
export const ms = (x: number) => (Number.isFinite(x) ? (x < 10 ? x.toFixed(2) : x.toFixed(1)) : "-");
/** Bytes as whole MiB (no unit). */
export const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
export const ratio = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : "-");
/** A rate: whole numbers from 100 up, one decimal below. */
export const rate = (x: number) => (Number.isFinite(x) ? (x >= 100 ? x.toFixed(0) : x.toFixed(1)) : "-");
