import { pino, type DestinationStream, type Logger } from "pino";
import { prettyStream } from "./pretty.js";

export type { Logger };

/** `json`: one JSON object per line (for log collectors); `pretty`: short lines for a person; `auto`: pretty on a terminal. */
export type LogFormat = "json" | "pretty" | "auto";

export const LOG_FORMATS: readonly LogFormat[] = ["auto", "json", "pretty"];

/** The format `auto` stands for on this process's stdout. */
export function resolveLogFormat(format: LogFormat, stdoutIsTty = process.stdout.isTTY === true): "json" | "pretty" {
  if (format !== "auto") return format;
  return stdoutIsTty ? "pretty" : "json";
}

/**
 * The process logger, on stdout: every line the server prints goes through it (requests,
 * lifecycle, database driver warnings). JSON lines or, on a terminal, short human lines.
 */
export function createLogger(level: string, format: LogFormat = "auto", destination?: DestinationStream): Logger {
  const options = { level, base: { service: "tracker" } };
  if (resolveLogFormat(format) === "pretty") {
    return pino(
      options,
      prettyStream({ destination, colorize: destination === undefined && process.stdout.isTTY === true }),
    );
  }
  return destination ? pino(options, destination) : pino(options);
}
