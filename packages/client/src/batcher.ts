// Buffers metrics, params and tags logged one by one and sends them to a run with log-batch.
import { BatchBudget, itemBytes, type BatchKind } from "./batch-limits.js";
import type { LogBatchInput, MetricInput, ParamValue } from "./entities.js";
import { toWireMetric } from "./wire.js";

/** Where a batcher sends its batches: a TrackerClient, or anything with its logBatch. */
export interface BatchSink {
  logBatch(runId: string, batch: LogBatchInput): Promise<void>;
}

export interface RunBatcherOptions {
  /**
   * Longest time an item waits in the buffer, in milliseconds (default 1000). The timer runs only
   * while items are waiting. 0 turns timed flushes off (then only size, flush() and close() send).
   */
  flushIntervalMs?: number;
  /**
   * Called with the error of every batch that fails. Without it the first error since the last
   * flush() is thrown by the next flush() or close() (batches sent on size or on the interval fail
   * in the background).
   */
  onError?: (error: unknown) => void;
}

interface Buffer {
  metrics: MetricInput[];
  params: Array<{ key: string; value: string }>;
  tags: Array<{ key: string; value: string }>;
}

const emptyBuffer = (): Buffer => ({ metrics: [], params: [], tags: [] });

/**
 * Collects metrics, params and tags for one run and sends them with log-batch: as soon as a request
 * would reach a limit of the API (1000 items, 100 params, 100 tags, 1 MB), when the oldest waiting
 * item is `flushIntervalMs` old, and on flush() and close(). Batches are sent one at a time, in the
 * order the items were logged. Call close() when done: it sends what is left.
 *
 * @example
 * const batcher = client.batcher(run.info.run_id);
 * for (let step = 0; step < 10_000; step++) batcher.logMetric("loss", loss(step), { step });
 * await batcher.close();
 */
export class RunBatcher {
  readonly runId: string;
  readonly #sink: BatchSink;
  readonly #flushIntervalMs: number;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #budget: BatchBudget;
  #buffer: Buffer = emptyBuffer();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #sending: Promise<void> = Promise.resolve();
  #failure: { error: unknown } | undefined;
  #closed = false;

  constructor(sink: BatchSink, runId: string, options: RunBatcherOptions = {}) {
    this.#sink = sink;
    this.runId = runId;
    this.#flushIntervalMs = options.flushIntervalMs ?? 1000;
    this.#onError = options.onError;
    this.#budget = new BatchBudget(runId);
  }

  /** Items waiting to be sent. */
  get pending(): number {
    const buffer = this.#buffer;
    return buffer.metrics.length + buffer.params.length + buffer.tags.length;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Queues one metric value; its timestamp is the time of this call unless given. */
  logMetric(key: string, value: number, options: { step?: number; timestamp?: number } = {}): void {
    const metric: MetricInput = { key, value, timestamp: options.timestamp ?? Date.now(), step: options.step ?? 0 };
    this.#add("metrics", metric, itemBytes(toWireMetric(metric)));
  }

  /** Queues several metric values that share a step and timestamp. */
  logMetrics(values: Readonly<Record<string, number>>, options: { step?: number; timestamp?: number } = {}): void {
    const timestamp = options.timestamp ?? Date.now();
    for (const [key, value] of Object.entries(values)) this.logMetric(key, value, { ...options, timestamp });
  }

  logParam(key: string, value: ParamValue): void {
    const param = { key, value: String(value) };
    this.#add("params", param, itemBytes(param));
  }

  logParams(params: Readonly<Record<string, ParamValue>>): void {
    for (const [key, value] of Object.entries(params)) this.logParam(key, value);
  }

  setTag(key: string, value: string): void {
    const tag = { key, value };
    this.#add("tags", tag, itemBytes(tag));
  }

  /** Sends everything queued so far and waits until every batch is sent. */
  async flush(): Promise<void> {
    this.#sendBuffer();
    await this.#sending;
    const failure = this.#failure;
    this.#failure = undefined;
    if (failure) throw failure.error;
  }

  /** Sends what is left and stops the batcher; later logging throws. Closing twice is harmless. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
  }

  #add<K extends BatchKind>(kind: K, item: Buffer[K][number], bytes: number): void {
    if (this.#closed) throw new Error(`RunBatcher for run ${this.runId} is closed`);
    if (!this.#budget.fits(kind, bytes)) this.#sendBuffer();
    (this.#buffer[kind] as Array<Buffer[K][number]>).push(item);
    this.#budget.add(kind, bytes);
    if (this.#budget.isFull) this.#sendBuffer();
    else this.#armTimer();
  }

  #armTimer(): void {
    if (this.#timer !== undefined || this.#flushIntervalMs <= 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#sendBuffer();
    }, this.#flushIntervalMs);
  }

  /** Moves the buffer into the send queue. */
  #sendBuffer(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.pending === 0) return;
    const batch = this.#buffer;
    this.#buffer = emptyBuffer();
    this.#budget.reset();
    this.#sending = this.#sending
      .then(() => this.#sink.logBatch(this.runId, batch))
      .catch((error: unknown) => this.#report(error));
  }

  #report(error: unknown): void {
    if (!this.#onError) {
      this.#failure ??= { error };
      return;
    }
    try {
      this.#onError(error);
    } catch {
      // An onError that throws must not stop the batches queued after this one.
    }
  }
}
