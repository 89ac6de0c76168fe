import { Writable } from "node:stream";

/** A log destination that keeps what the logger wrote (for tests that read the log). */
export function logSink() {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return {
    stream,
    text: () => text,
    /** The JSON records written, in order. */
    records: (): Array<Record<string, unknown>> =>
      text
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
