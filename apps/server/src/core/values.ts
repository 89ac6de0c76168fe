import { invalidParameter, missingValue } from "./errors.js";

/** Parses an int64 request value (JSON number or decimal string) into a safe integer. */
export function toInt64(field: string, raw: unknown): number {
  const n = typeof raw === "string" && /^-?\d+$/.test(raw.trim()) ? Number(raw) : typeof raw === "number" ? raw : NaN;
  if (!Number.isSafeInteger(n))
    throw invalidParameter(`Invalid value ${JSON.stringify(raw)} for parameter '${field}': expected an integer`);
  return n;
}

export function optionalInt64(field: string, raw: unknown): number | undefined {
  return raw === undefined || raw === null ? undefined : toInt64(field, raw);
}

/** Parses a double request value: a number, a numeric string, or "NaN" / "Infinity" / "-Infinity". */
export function toDouble(field: string, raw: unknown): number {
  if (typeof raw === "number") return raw;
  if (typeof raw === "string") {
    const s = raw.trim();
    if (s === "NaN") return NaN;
    if (s === "Infinity" || s === "+Infinity") return Infinity;
    if (s === "-Infinity") return -Infinity;
    if (s !== "" && Number.isFinite(Number(s))) return Number(s);
  }
  throw invalidParameter(`Invalid value ${JSON.stringify(raw)} for parameter '${field}': expected a number`);
}

/** A double as responses carry it: finite values as numbers, the others as "NaN", "Infinity", "-Infinity". */
export function doubleOut(value: number): number | "NaN" | "Infinity" | "-Infinity" {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "Infinity";
  if (value === -Infinity) return "-Infinity";
  return value;
}

/** An experiment id of revision C (decimal string) or A/B (int64). */
export function toExperimentId(raw: unknown, field = "experiment_id"): number {
  const id = toInt64(field, raw);
  if (id < 0) throw invalidParameter(`Invalid value ${JSON.stringify(raw)} for parameter '${field}'`);
  return id;
}

export function requireField<T>(field: string, raw: T | undefined | null): T {
  if (raw === undefined || raw === null || (typeof raw === "string" && raw === "")) {
    throw missingValue(field);
  }
  return raw;
}
