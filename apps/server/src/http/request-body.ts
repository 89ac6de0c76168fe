import type { IncomingMessage } from "node:http";
import { isLosslessNumber, parse } from "lossless-json";

/**
 * What MLflow's server sees of a JSON body that JavaScript's JSON.parse loses or reads differently:
 * - null fields are absent (protobuf's JSON mapping), so `run_id: null` is a missing run_id;
 * - a number written with a fraction or exponent is a float (`9.0` is Python's float 9.0, which
 *   JSON.parse makes the integer 9): error messages render it as Python does.
 */

const rawBodies = new WeakMap<IncomingMessage, Buffer>();

/** `verify` hook of express.json: keeps the body's bytes for messages about its values. */
export function rememberRawBody(req: IncomingMessage, buf: Buffer): void {
  rawBodies.set(req, buf);
}

/**
 * Removes the null-valued fields of the objects in a parsed JSON body, at any depth. Iterative: a
 * body nested 100,000 levels deep (an unknown field, which is ignored) must not overflow the stack.
 */
export function dropNullFields(value: unknown): void {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (Array.isArray(next)) {
      for (const item of next) if (item !== null && typeof item === "object") pending.push(item);
    } else if (next !== null && typeof next === "object") {
      const record = next as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const field = record[key];
        if (field === null) delete record[key];
        else if (typeof field === "object") pending.push(field);
      }
    }
  }
}

/**
 * The body's value at `segments` as Python writes a float (`9.0`, `1e-05`) when the JSON wrote it
 * as one (with a fraction or an exponent); undefined otherwise.
 */
export function floatLiteralAt(req: IncomingMessage, segments: readonly string[]): string | undefined {
  const raw = rawBodies.get(req);
  if (!raw) return undefined;
  let node: unknown;
  try {
    node = parse(raw.toString("utf8"));
  } catch {
    return undefined;
  }
  for (const s of segments) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[s];
  }
  if (!isLosslessNumber(node) || !/[.eE]/.test(node.value)) return undefined;
  return pythonFloat(Number(node.value));
}

/** Python's repr of a float. */
export function pythonFloat(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const abs = Math.abs(n);
  if (abs >= 1e16 || abs < 1e-4) {
    const [mantissa, exponent] = n.toExponential().split("e");
    const sign = exponent.startsWith("-") ? "-" : "+";
    return `${mantissa}e${sign}${exponent.replace(/^[+-]/, "").padStart(2, "0")}`;
  }
  const text = String(n);
  return Number.isInteger(n) ? `${text}.0` : text;
}
