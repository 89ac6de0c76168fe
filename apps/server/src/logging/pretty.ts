import type { DestinationStream } from "pino";
import pinoPretty, { type PrettyOptions } from "pino-pretty";

/**
 * The human log format (pino-pretty with tracker's own message lines): one short line per request
 * (`12:00:01.234 INFO  GET /api/2.0/tracker/runs/get 200 3 ms`), the start-up record as a few
 * aligned lines, anything else as its message with its fields as `key=value`.
 */

type LogRecord = { [key: string]: unknown };

const HIDDEN = new Set(["level", "time", "pid", "hostname", "service", "msg", "v", "reqId"]);

const value = (v: unknown): string =>
  typeof v === "string" ? (/\s/.test(v) || v === "" ? JSON.stringify(v) : v) : JSON.stringify(v);

function requestLine(log: LogRecord): string {
  const req = (log.req ?? {}) as LogRecord;
  const res = (log.res ?? {}) as LogRecord;
  const ms = typeof log.responseTime === "number" ? `${Math.round(log.responseTime)} ms` : "";
  const error = log.err ? ` (${String(((log.err as LogRecord).message ?? "") as string).split("\n")[0]})` : "";
  return [req.method, req.url, res.statusCode, ms].filter((x) => x !== undefined && x !== "").join(" ") + error;
}

/** Rows of the start-up record, in reading order. */
const STARTUP_ROWS: Array<[string, string]> = [
  ["database", "database"],
  ["artifactsDestination", "artifacts"],
  ["artifactRoot", "root"],
  ["namespace", "namespace"],
  ["workers", "workers"],
  ["auth", "auth"],
];

function startupLines(log: LogRecord): string {
  const rows = STARTUP_ROWS.filter(([key]) => log[key] !== undefined).map(
    ([key, label]) => `  ${label.padEnd(10)} ${String(log[key])}`,
  );
  return [`${String(log.msg)} on ${String(log.url)}`, ...rows].join("\n");
}

/** One record as the message part of a human line (without time and level). */
export function humanMessage(log: LogRecord): string {
  if (log.req && log.res) return requestLine(log);
  if (log.startup === true) return startupLines(log);
  const fields = Object.entries(log)
    .filter(([key, v]) => !HIDDEN.has(key) && key !== "err" && key !== "startup" && v !== undefined)
    .map(([key, v]) => `${key}=${value(v)}`);
  const err = log.err as LogRecord | undefined;
  const errText = err ? `: ${String(err.message ?? err.type ?? "error")}` : "";
  return [`${String(log.msg ?? "")}${errText}`, ...fields].join(" ");
}

export interface PrettyStreamOptions {
  /** Where to write (default: stdout). */
  destination?: DestinationStream | NodeJS.WritableStream;
  colorize?: boolean;
}

/** A synchronous pino destination writing human lines. */
export function prettyStream({ destination, colorize = false }: PrettyStreamOptions = {}): DestinationStream {
  const options: PrettyOptions = {
    sync: true,
    colorize,
    translateTime: "SYS:HH:MM:ss.l",
    hideObject: true,
    ignore: "pid,hostname,service",
    messageFormat: (log) => humanMessage(log),
    ...(destination ? { destination: destination as NodeJS.WritableStream } : {}),
  };
  return pinoPretty(options);
}
