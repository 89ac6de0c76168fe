// Charts are built right after a frame was painted, as many in a frame as fit in a few milliseconds.
// Building a chart of 100 runs (uPlot's set-up and first draw) costs ~5-10 ms of main thread; a card
// whose data arrives mid-scroll used to build at once, wherever in the frame that was, and pushed
// the next frame back (24-36 ms frames in the charts view's scroll). Started just after a paint, the
// same work has the frame's whole budget, and several cards arriving together share it out.

/** Runs a function just after the next frame was painted. */
export type AfterPaint = (run: () => void) => void;

/**
 * requestAnimationFrame, then a message (the frame is painted between the two). Without
 * requestAnimationFrame (jsdom in unit tests) at once, as before.
 */
export const browserAfterPaint: AfterPaint = (run) => {
  if (typeof requestAnimationFrame !== "function" || typeof MessageChannel !== "function") {
    run();
    return;
  }
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      run();
    };
    channel.port2.postMessage(null);
  });
};

/** Milliseconds of builds a frame takes before the rest wait for the next one. */
export const FRAME_BUDGET_MS = 6;

/** Builds waiting for a frame, run in the order they were added. */
export class FrameQueue {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  constructor(
    private readonly afterPaint: AfterPaint = browserAfterPaint,
    private readonly now: () => number = () => performance.now(),
    private readonly budgetMs = FRAME_BUDGET_MS,
  ) {}

  /** Runs `build` after a paint; the function returned takes it out of the queue if it has not run. */
  add(build: () => void): () => void {
    this.waiting.push(build);
    this.schedule();
    return () => {
      const at = this.waiting.indexOf(build);
      if (at >= 0) this.waiting.splice(at, 1);
    };
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    this.afterPaint(() => {
      this.scheduled = false;
      const start = this.now();
      try {
        // At least one a frame; more while the frame's budget lasts.
        do this.waiting.shift()?.();
        while (this.waiting.length > 0 && this.now() - start < this.budgetMs);
      } finally {
        this.schedule();
      }
    });
  }
}

/** The queue every chart of the UI is built through. */
export const chartFrames = new FrameQueue();
