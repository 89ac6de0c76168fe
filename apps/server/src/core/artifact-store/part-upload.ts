/**
 * A body streamed into an S3 multipart upload with a fixed memory bound: at most `partsInFlight`
 * parts being sent plus the one being filled, each in a buffer of `partSize` bytes that is reused
 * for the next part once sent (PART_BUFFERS_BYTES). Reading the body stops while every sending slot
 * is busy and the next part is full, so the body (an HTTP request) is paused and TCP holds the
 * client back: backpressure, never a queue.
 *
 * Why not @aws-sdk/lib-storage's Upload: it allocates a fresh buffer for every part (Buffer.concat
 * of the chunks read), which survives the young-generation GC while it is sent and so piles up in
 * V8's old generation until a full GC; measured through the server, its 4 x 8 MiB queue grew the
 * server's RSS by 94-111 MiB during a large upload, against the ~48 MiB it holds alive.
 */

/** What the pipeline asks of S3 (S3Store implements it with client-s3 commands). */
export interface PartTarget {
  /** Stores a body smaller than one part with a single PUT. */
  putWhole(data: Buffer): Promise<void>;
  /** Starts a multipart upload; resolves to its upload id. */
  start(): Promise<string>;
  /** Sends one part (numbered from 1); resolves to its ETag. The buffer is reused once it resolves. */
  putPart(uploadId: string, partNumber: number, data: Buffer): Promise<string>;
  complete(uploadId: string, parts: { PartNumber: number; ETag: string }[]): Promise<void>;
  abort(uploadId: string): Promise<void>;
}

export interface PartLimits {
  /** Bytes per part (S3 wants at least 5 MiB for every part but the last). */
  partSize: number;
  /** Parts sent at once. */
  partsInFlight: number;
}

/** The most bytes of part buffers one upload holds: the parts in flight and the one being filled. */
export const partBufferBytes = (limits: PartLimits): number => (limits.partsInFlight + 1) * limits.partSize;

/** S3 numbers parts 1 to 10,000, each at least 5 MiB but the last. */
const MAX_PARTS = 10_000;
const MIN_PART_SIZE = 5 * 1024 * 1024;
/** Parts sent at once: lib-storage's default, as fast as its upload of the same file (see docs/deploy.md). */
const PARTS_IN_FLIGHT = 4;

/**
 * The parts of uploads up to `maxBytes`: S3's smallest part (5 MiB), or larger (whole MiB) when
 * 10,000 of them could not hold `maxBytes`. With the default 10 GiB limit an upload holds at most
 * 5 x 5 MiB = 25 MiB of part buffers.
 */
export function partLimitsFor(maxBytes: number): PartLimits {
  const mib = 1024 * 1024;
  return {
    partSize: Math.max(MIN_PART_SIZE, Math.ceil(maxBytes / MAX_PARTS / mib) * mib),
    partsInFlight: PARTS_IN_FLIGHT,
  };
}

/**
 * Sends `body` to `target` in parts; one PUT when it ends before the first part is full. When the
 * body or a part fails, waits for the parts in flight, aborts the multipart upload (no object and
 * no unfinished upload is left) and throws the first failure.
 */
export async function uploadInParts(
  body: AsyncIterable<Buffer>,
  target: PartTarget,
  limits: PartLimits,
): Promise<void> {
  const { partSize, partsInFlight } = limits;
  const free: Buffer[] = [];
  const sending = new Set<Promise<void>>();
  const etags: { PartNumber: number; ETag: string }[] = [];
  let failure: { error: unknown } | undefined;
  let uploadId: Promise<string> | undefined;
  let parts = 0;
  let current: Buffer | undefined;
  let filled = 0;

  const send = async (data: Buffer, length: number) => {
    if (parts === MAX_PARTS)
      throw new Error(`The upload needs more than ${MAX_PARTS} parts of ${partSize} bytes (S3's limit)`);
    const partNumber = ++parts;
    uploadId ??= target.start();
    // A failed start fails every part; the first failure is the one thrown.
    const id = uploadId;
    while (sending.size >= partsInFlight) await Promise.race(sending);
    if (failure) throw failure.error;
    const sent: Promise<void> = id
      .then((started) => target.putPart(started, partNumber, data.subarray(0, length)))
      .then(
        (ETag) => {
          etags.push({ PartNumber: partNumber, ETag });
          free.push(data);
        },
        (error: unknown) => {
          failure ??= { error };
        },
      )
      .finally(() => sending.delete(sent));
    sending.add(sent);
  };

  /** Copies a chunk into part buffers, sending each one that is full when more bytes come. */
  const fill = async (chunk: Buffer) => {
    for (let at = 0; at < chunk.length; ) {
      if (current && filled === partSize) {
        await send(current, filled);
        current = undefined;
        filled = 0;
      }
      current ??= free.pop() ?? Buffer.allocUnsafe(partSize);
      const n = Math.min(partSize - filled, chunk.length - at);
      chunk.copy(current, filled, at, at + n);
      filled += n;
      at += n;
    }
  };
  // The first part's chunks as they came, until there are more than a part's bytes: a small file
  // is one PUT of them, with no part buffer.
  let head: Buffer[] | undefined = [];
  let headBytes = 0;
  try {
    for await (const chunk of body) {
      if (!head) {
        await fill(chunk);
        continue;
      }
      head.push(chunk);
      headBytes += chunk.length;
      if (headBytes <= partSize) continue;
      const chunks = head;
      head = undefined;
      for (const c of chunks) await fill(c);
    }
  } catch (error) {
    failure ??= { error };
  }
  if (!failure && head) {
    await target.putWhole(Buffer.concat(head));
    return;
  }
  if (!failure && current) {
    try {
      await send(current, filled);
    } catch (error) {
      failure ??= { error };
    }
  }
  while (sending.size > 0) await Promise.race(sending);
  const id = uploadId;
  if (failure || id === undefined) {
    if (id !== undefined) await id.then((started) => target.abort(started)).catch(() => undefined);
    throw failure?.error;
  }
  try {
    await target.complete(
      await id,
      etags.sort((a, b) => a.PartNumber - b.PartNumber),
    );
  } catch (error) {
    await target.abort(await id).catch(() => undefined);
    throw error;
  }
}
