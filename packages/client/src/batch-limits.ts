// The limits of runs/log-batch (spec rev-c, part 8) and the splitting of larger batches into
// requests that each stay within them.
import type { WireKeyValue, WireMetric } from "./wire.js";

export const LOG_BATCH_LIMITS = {
  /** Metric values per request. */
  metrics: 1000,
  /** Params per request. */
  params: 100,
  /** Tags per request. */
  tags: 100,
  /** Metrics, params and tags together per request. */
  items: 1000,
  /**
   * Bytes of JSON per request. The server refuses bodies over 1 MB (1 048 576 bytes); the client keeps
   * a margin below that.
   */
  bytes: 1_000_000,
} as const;

export type BatchKind = "metrics" | "params" | "tags";

/** A log-batch body without its run id, in wire form. */
export interface WireBatch {
  metrics: WireMetric[];
  params: WireKeyValue[];
  tags: WireKeyValue[];
}

const encoder = new TextEncoder();

/** UTF-8 size of an item inside its JSON array, separator included. */
export function itemBytes(item: WireMetric | WireKeyValue): number {
  return encoder.encode(JSON.stringify(item)).length + 1;
}

/** Size of a log-batch body with empty arrays for this run. */
export function emptyBatchBytes(runId: string): number {
  return encoder.encode(JSON.stringify({ run_id: runId, metrics: [], params: [], tags: [] })).length;
}

export function emptyBatch(): WireBatch {
  return { metrics: [], params: [], tags: [] };
}

export function batchSize(batch: WireBatch): number {
  return batch.metrics.length + batch.params.length + batch.tags.length;
}

/** Keeps count of one request under construction and tells whether a further item still fits. */
export class BatchBudget {
  readonly #baseBytes: number;
  #bytes: number;
  #counts = { metrics: 0, params: 0, tags: 0 };

  constructor(runId: string) {
    this.#baseBytes = emptyBatchBytes(runId);
    this.#bytes = this.#baseBytes;
  }

  /** True when an item of this kind and size can join the request. An empty request takes anything. */
  fits(kind: BatchKind, bytes: number): boolean {
    if (this.isEmpty) return true;
    const counts = this.#counts;
    return (
      counts[kind] < LOG_BATCH_LIMITS[kind] &&
      counts.metrics + counts.params + counts.tags < LOG_BATCH_LIMITS.items &&
      this.#bytes + bytes <= LOG_BATCH_LIMITS.bytes
    );
  }

  add(kind: BatchKind, bytes: number): void {
    this.#counts[kind] += 1;
    this.#bytes += bytes;
  }

  /** True when no further item of any kind can join: a count limit is reached. */
  get isFull(): boolean {
    const counts = this.#counts;
    return (
      counts.metrics + counts.params + counts.tags >= LOG_BATCH_LIMITS.items ||
      (counts.metrics >= LOG_BATCH_LIMITS.metrics &&
        counts.params >= LOG_BATCH_LIMITS.params &&
        counts.tags >= LOG_BATCH_LIMITS.tags)
    );
  }

  get isEmpty(): boolean {
    return this.#counts.metrics + this.#counts.params + this.#counts.tags === 0;
  }

  reset(): void {
    this.#counts = { metrics: 0, params: 0, tags: 0 };
    this.#bytes = this.#baseBytes;
  }
}

/**
 * Splits a batch into requests that each respect {@link LOG_BATCH_LIMITS}, keeping the order of the
 * items of each kind (params first, then tags, then metrics). A single item larger than the byte limit
 * travels alone, and the server judges it.
 */
export function splitBatch(runId: string, batch: WireBatch): WireBatch[] {
  const chunks: WireBatch[] = [];
  const budget = new BatchBudget(runId);
  let current = emptyBatch();
  const push = <K extends BatchKind>(kind: K, item: WireBatch[K][number]) => {
    const bytes = itemBytes(item);
    if (!budget.fits(kind, bytes)) {
      chunks.push(current);
      current = emptyBatch();
      budget.reset();
    }
    (current[kind] as Array<WireBatch[K][number]>).push(item);
    budget.add(kind, bytes);
  };
  for (const param of batch.params) push("params", param);
  for (const tag of batch.tags) push("tags", tag);
  for (const metric of batch.metrics) push("metrics", metric);
  if (!budget.isEmpty) chunks.push(current);
  return chunks;
}
