// The charts view's cards off screen: drawn one at a time while the page is idle, after the cards
// on screen have loaded, so a scroll reveals cards already drawn instead of drawing them mid-scroll.

/** Runs a function when the main thread is idle. */
export type WhenIdle = (run: () => void) => void;

/** requestIdleCallback (at the latest after a second), or a short timeout where there is none (jsdom). */
export const browserIdle: WhenIdle = (run) => {
  if (typeof requestIdleCallback === "function") requestIdleCallback(() => run(), { timeout: 1000 });
  else setTimeout(run, 20);
};

/**
 * Loads under way (a card fetching or drawing its chart) and cards waiting for their turn: a
 * waiting card is let in when no load is under way and the page is idle, one per idle period, in
 * the order they asked.
 */
export class CardQueue {
  private loads = 0;
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  constructor(private readonly whenIdle: WhenIdle = browserIdle) {}

  /** A load begins; the function returned ends it (once, however often it is called). */
  begin(): () => void {
    this.loads += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.loads -= 1;
      this.pump();
    };
  }

  /** Calls `enter` when it is this card's turn; the function returned takes the card out of the queue. */
  wait(enter: () => void): () => void {
    this.waiting.push(enter);
    this.pump();
    return () => {
      const at = this.waiting.indexOf(enter);
      if (at >= 0) this.waiting.splice(at, 1);
    };
  }

  private pump(): void {
    if (this.scheduled || this.loads > 0 || this.waiting.length === 0) return;
    this.scheduled = true;
    this.whenIdle(() => {
      this.scheduled = false;
      // A load that began meanwhile pumps again when it ends.
      if (this.loads > 0) return;
      this.waiting.shift()?.();
      this.pump();
    });
  }
}

/** The queue of the charts view's cards. */
export const cardQueue = new CardQueue();
