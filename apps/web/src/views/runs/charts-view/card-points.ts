// How many points a line card of the charts view asks the server for, from its width and its runs.

/** Points a line card asks for per pixel of its width, shared by its runs. */
export const POINTS_PER_PIXEL = 10;
/** The width assumed before the card is laid out (and in tests without layout). */
const DEFAULT_CARD_WIDTH = 500;

/**
 * Points asked from the server per run: POINTS_PER_PIXEL per pixel of the card's width (rounded up
 * to 100 px, so a small resize asks nothing again) shared by its runs, between 50 and 1,000 a run.
 * A 500 px card: 50 a run at 100 runs (5,000 points, a quarter of a megabyte of JSON), 500 at 10.
 */
export function pointsPerRun(runs: number, width = DEFAULT_CARD_WIDTH): number {
  const pixels = Math.ceil(Math.max(1, width || DEFAULT_CARD_WIDTH) / 100) * 100;
  return Math.max(50, Math.min(1000, Math.floor((pixels * POINTS_PER_PIXEL) / Math.max(1, runs))));
}
