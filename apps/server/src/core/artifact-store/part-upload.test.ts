import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { partBufferBytes, partLimitsFor, type PartLimits, type PartTarget, uploadInParts } from "./part-upload.js";

const KIB = 1024;
const MIB = 1024 * KIB;
const CHUNK = 64 * KIB;

/** A byte stream of `total` bytes (byte i is i % 251) in 64 KiB chunks, counting what was read from it. */
function source(total: number, failAt?: number): { body: Readable; pulled: () => number } {
  let at = 0;
  const body = new Readable({
    highWaterMark: CHUNK,
    read() {
      if (failAt !== undefined && at >= failAt) {
        this.destroy(new Error("the client went away"));
        return;
      }
      if (at >= total) {
        this.push(null);
        return;
      }
      const chunk = Buffer.alloc(Math.min(CHUNK, total - at));
      for (let i = 0; i < chunk.length; i++) chunk[i] = (at + i) % 251;
      at += chunk.length;
      this.push(chunk);
    },
  });
  return { body, pulled: () => at };
}

const digest = (buffers: Buffer[]) => {
  const hash = createHash("sha256");
  for (const b of buffers) hash.update(b);
  return hash.digest("hex");
};

/** A target that records what it is sent; parts wait for `release` while `hold` is set. */
function recordingTarget(options: { failPart?: number } = {}) {
  const calls: string[] = [];
  const parts = new Map<number, Buffer>();
  let whole: Buffer | undefined;
  let completed: { PartNumber: number; ETag: string }[] | undefined;
  let holding: (() => void)[] | undefined;
  let maxInFlight = 0;
  let inFlight = 0;
  const target: PartTarget = {
    putWhole: async (data) => {
      calls.push("putWhole");
      whole = Buffer.from(data);
    },
    start: async () => {
      calls.push("start");
      return "upload-1";
    },
    putPart: async (_id, partNumber, data) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        if (holding) await new Promise<void>((resolve) => holding?.push(resolve));
        if (partNumber === options.failPart) throw new Error(`part ${partNumber} failed`);
        // A copy: the pipeline reuses the buffer once this resolves.
        parts.set(partNumber, Buffer.from(data));
        return `"etag-${partNumber}"`;
      } finally {
        inFlight -= 1;
      }
    },
    complete: async (_id, list) => {
      calls.push("complete");
      completed = list;
    },
    abort: async () => {
      calls.push("abort");
    },
  };
  return {
    target,
    calls,
    parts,
    whole: () => whole,
    completed: () => completed,
    maxInFlight: () => maxInFlight,
    hold: () => {
      holding = [];
    },
    held: () => holding?.length ?? 0,
    release: () => {
      const waiting = holding ?? [];
      holding = undefined;
      for (const resolve of waiting) resolve();
    },
  };
}

/** Turns of the event loop until `pulled` stops moving for 50 turns in a row (the pipeline is stalled). */
async function settled(pulled: () => number): Promise<number> {
  let last = -1;
  for (let still = 0; still < 50; ) {
    await new Promise((resolve) => setImmediate(resolve));
    const now = pulled();
    still = now === last ? still + 1 : 0;
    last = now;
  }
  return last;
}

const LIMITS: PartLimits = { partSize: 1 * MIB, partsInFlight: 3 };

describe("uploadInParts", () => {
  it("reads the body no further than its part buffers while every part in flight waits (backpressure)", async () => {
    const total = 64 * MIB;
    const { body, pulled } = source(total);
    const t = recordingTarget();
    t.hold();
    const done = uploadInParts(body, t.target, LIMITS);
    const read = await settled(pulled);
    expect(t.held()).toBe(LIMITS.partsInFlight);
    // What the server holds of an upload: its part buffers, plus at most the stream's read-ahead
    // (one highWaterMark) and the first part's chunks, which are copied into a buffer before sent.
    expect(read).toBeLessThanOrEqual(partBufferBytes(LIMITS) + 2 * CHUNK);
    expect(read).toBeLessThan(total / 10);
    t.release();
    await done;
    expect(t.maxInFlight()).toBe(LIMITS.partsInFlight);
    expect(t.calls).toEqual(["start", "complete"]);
    const numbers = t.completed()?.map((p) => p.PartNumber);
    expect(numbers).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
    expect(t.completed()?.[0]?.ETag).toBe('"etag-1"');
    const sent = numbers?.map((n) => t.parts.get(n) ?? Buffer.alloc(0)) ?? [];
    expect(sent.every((p) => p.length === LIMITS.partSize)).toBe(true);
    expect(digest(sent)).toBe(digest([bodyBytes(total)]));
  });

  it("sends a body smaller than a part with one PUT, and an exact multiple of parts with no empty part", async () => {
    const small = recordingTarget();
    await uploadInParts(source(100 * KIB).body, small.target, LIMITS);
    expect(small.calls).toEqual(["putWhole"]);
    expect(small.whole()?.equals(bodyBytes(100 * KIB))).toBe(true);

    const empty = recordingTarget();
    await uploadInParts(source(0).body, empty.target, LIMITS);
    expect(empty.whole()?.length).toBe(0);

    const exact = recordingTarget();
    await uploadInParts(source(3 * MIB).body, exact.target, LIMITS);
    expect(exact.completed()?.map((p) => p.PartNumber)).toEqual([1, 2, 3]);
    expect(digest([...exact.parts.values()])).toBe(digest([bodyBytes(3 * MIB)]));

    const oneMore = recordingTarget();
    await uploadInParts(source(3 * MIB + 1).body, oneMore.target, LIMITS);
    expect(oneMore.parts.get(4)?.length).toBe(1);
  });

  it("aborts, never completes, and throws when the body fails midway", async () => {
    const t = recordingTarget();
    await expect(uploadInParts(source(16 * MIB, 5 * MIB).body, t.target, LIMITS)).rejects.toThrow(
      "the client went away",
    );
    expect(t.calls).toEqual(["start", "abort"]);
  });

  it("stops reading, aborts and throws the part's error when a part fails", async () => {
    const { body, pulled } = source(256 * MIB);
    const t = recordingTarget({ failPart: 2 });
    await expect(uploadInParts(body, t.target, LIMITS)).rejects.toThrow("part 2 failed");
    expect(t.calls).toEqual(["start", "abort"]);
    expect(pulled()).toBeLessThan(16 * MIB);
  });
});

describe("partLimitsFor", () => {
  it("uses S3's smallest part up to 10,000 of them, larger whole MiB beyond", () => {
    expect(partLimitsFor(10 * 1024 * MIB)).toEqual({ partSize: 5 * MIB, partsInFlight: 4 });
    expect(partBufferBytes(partLimitsFor(10 * 1024 * MIB))).toBe(25 * MIB);
    expect(partLimitsFor(100 * 1024 * MIB).partSize).toBe(11 * MIB);
  });
});

function bodyBytes(total: number): Buffer {
  const b = Buffer.alloc(total);
  for (let i = 0; i < total; i++) b[i] = i % 251;
  return b;
}
