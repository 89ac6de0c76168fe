import { createHash } from "node:crypto";
import { type Readable, Transform } from "node:stream";
import { invalidParameter, TrackerError } from "../errors.js";
import type { WriteOptions } from "./artifact-store.js";

/**
 * The checks every store makes on an upload body, whatever it writes to: the size limit while the
 * bytes arrive, then the announced length and the digests before the consumer sees the end of the
 * body (so a failed check means the store never completes the file: no rename into place, no
 * completed S3 upload).
 */

export const tooLarge = (max: number) =>
  new TrackerError("REQUEST_TOO_LARGE", `The artifact is larger than the server's limit of ${max} bytes`);

/** Refuses a body announced larger than the limit, before a byte is read. */
export function refuseAnnouncedTooLarge(options: WriteOptions): void {
  if (options.expectedLength !== undefined && options.expectedLength > options.maxBytes)
    throw tooLarge(options.maxBytes);
}

function meter(options: WriteOptions, counted: { size: number }): Transform {
  const md5 = options.md5 ? createHash("md5") : undefined;
  const sha256 = options.sha256 ? createHash("sha256") : undefined;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      counted.size += chunk.length;
      if (counted.size > options.maxBytes) {
        done(tooLarge(options.maxBytes));
        return;
      }
      md5?.update(chunk);
      sha256?.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      if (options.expectedLength !== undefined && counted.size !== options.expectedLength) {
        done(
          invalidParameter(
            `The body has ${counted.size} bytes but Content-Length announced ${options.expectedLength}; nothing was stored`,
          ),
        );
      } else if (md5 && options.md5 && !md5.digest().equals(options.md5)) {
        done(invalidParameter("Content-MD5 does not match the body; nothing was stored"));
      } else if (sha256 && options.sha256 && !sha256.digest().equals(options.sha256)) {
        done(invalidParameter("The SHA-256 digest does not match the body; nothing was stored"));
      } else done();
    },
  });
}

/**
 * Feeds `body` through the checks to `consume` (which writes what it reads and resolves once the
 * file is complete) and returns the size. Unlike stream.pipeline it never destroys `body` (a
 * request: destroying it would close the connection before the server can answer 413 or 400); when
 * a check or the consumer fails, `body` is unpiped and left paused. A body that ends before its end
 * (an aborted upload) fails the stream `consume` reads, with an error.
 */
export async function meteredUpload(
  body: Readable,
  options: WriteOptions,
  consume: (checked: Readable) => Promise<unknown>,
): Promise<{ size: number }> {
  const counted = { size: 0 };
  const checked = meter(options, counted);
  const fail = (err?: Error) => checked.destroy(err ?? new Error("The upload was aborted before its end"));
  const onClose = () => {
    if (!body.readableEnded) fail();
  };
  const done = consume(checked);
  body.once("error", fail);
  body.once("close", onClose);
  body.pipe(checked);
  // Cut before the copy began (the client closed while the handler was checking the run): no
  // 'close' is coming any more.
  if ((body.destroyed || body.closed) && !body.readableEnded) fail();
  try {
    await done;
  } finally {
    body.unpipe(checked);
    body.off("error", fail);
    body.off("close", onClose);
  }
  return { size: counted.size };
}
