import { pino, type Logger } from "pino";

export type { Logger };

/** The process logger: JSON lines on stdout, one per request plus lifecycle events. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: "tracker" } });
}
