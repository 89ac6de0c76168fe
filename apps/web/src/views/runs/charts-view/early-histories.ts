// The charts view's first screen, asked for before the page renders: when the page's early runs
// search and run keys answer (views/runs/prefetch-runs.ts), the histories of the line cards
// expected on screen are requested at once, with the points per run their estimated width asks
// (card-points.ts), instead of after the page has rendered its cards and measured them. A line
// card takes such an answer when it is for its metric and runs and has at least the points per
// run its measured width asks; otherwise (or when it failed) the card sends its own request.
import type { Metric, Run, RunKeys } from "@tracker-ml/client";
import { fetchSampled } from "../../../charts/sampled-histories";
import type { SearchState } from "../../../url/search-state";
import { pointsPerRun } from "./card-points";
import { readCards, type CardSpec } from "./card-spec";
import { chartRuns, readRunLimit } from "./chart-runs";

/** How long an early answer waits for its card. */
const KEEP_MS = 15_000;

export interface Viewport {
  width: number;
  height: number;
}

/** One line card's request: its metric, the runs listed beside the charts, points per run. */
export interface EarlyHistory {
  metricKey: string;
  runIds: string[];
  perRun: number;
}

// The layout of charts-view.css and styles.css (main's padding, the run list, the card grid), as
// far as it decides which cards are on screen and how wide they are. A wrong guess costs time,
// never a wrong chart: the card then fetches for itself.
const NARROW_MAX = 640;
const SIDE_WIDE = 16 * 2 + 240 + 12;
const SIDE_NARROW = 8 * 2;
const COLUMN_MIN = 340;
const GRID_GAP = 10;
/** A card's border and padding around its chart. */
const CARD_FRAME = 18;
/** Where the cards begin below the page's top (header, heading, toolbars; the run list above them when narrow). */
const CARDS_TOP = { wide: 260, narrow: 660 };
/** A card's height with its header: charts of 220 px, enlarged ones of 340 px. */
const CARD_HEIGHT = { normal: 268, wide: 388 };

/** Where each card is expected: its top (px from the page's top) and its chart's width. */
export function expectedCardBoxes(cards: readonly CardSpec[], viewport: Viewport): { top: number; width: number }[] {
  const narrow = viewport.width <= NARROW_MAX;
  const area = viewport.width - (narrow ? SIDE_NARROW : SIDE_WIDE);
  const columns = Math.max(1, Math.floor((area + GRID_GAP) / (COLUMN_MIN + GRID_GAP)));
  const columnWidth = (area - GRID_GAP * (columns - 1)) / columns - CARD_FRAME;
  let top = narrow ? CARDS_TOP.narrow : CARDS_TOP.wide;
  let column = 0;
  let rowHeight = 0;
  const boxes: { top: number; width: number }[] = [];
  const endRow = () => {
    top += rowHeight + GRID_GAP;
    column = 0;
    rowHeight = 0;
  };
  for (const card of cards) {
    // An enlarged card spans a row of its own (the grid leaves the rest of a started row empty).
    if (card.wide && column > 0) endRow();
    boxes.push({ top, width: card.wide ? area - CARD_FRAME : columnWidth });
    rowHeight = Math.max(rowHeight, card.wide ? CARD_HEIGHT.wide : CARD_HEIGHT.normal);
    column = card.wide ? columns : column + 1;
    if (column >= columns) endRow();
  }
  return boxes;
}

/**
 * The line cards expected on screen at this URL state, and what each will ask for: the cards and
 * runs as ChartsView picks them from the first page of runs and the metric keys (sorted as the page
 * sorts them), the points per run from the card's expected width.
 */
export function firstScreenHistories(
  state: SearchState,
  runs: readonly Run[],
  metricKeys: readonly string[],
  viewport: Viewport,
): EarlyHistory[] {
  const cards = readCards(
    state.params.has("cards") ? state.list("cards") : undefined,
    [...metricKeys].sort((a, b) => a.localeCompare(b)),
  );
  const listed = chartRuns({
    runs,
    selected: state.list("sel"),
    pinned: state.list("pin"),
    hidden: state.list("hide"),
    limit: readRunLimit(state.get("top")),
  });
  if (listed.length === 0) return [];
  const runIds = listed.map((c) => c.run.info.run_id);
  const boxes = expectedCardBoxes(cards, viewport);
  return cards.flatMap((card, i) =>
    card.type === "line" && boxes[i]!.top < viewport.height
      ? [
          {
            metricKey: card.axes[0]!.slice("metrics.".length),
            runIds,
            perRun: pointsPerRun(runIds.length, boxes[i]!.width),
          },
        ]
      : [],
  );
}

interface Kept {
  perRun: number;
  answer: Promise<Map<string, Metric[]> | undefined>;
}

const early = new Map<string, Kept>();
/** The early requests being planned (waiting for the runs and keys): cards wait for it before asking. */
let planning: Promise<void> = Promise.resolve();

const idOf = (metricKey: string, runIds: readonly string[]) => `${metricKey}\n${runIds.join(",")}`;

/**
 * Sends the first screen's history requests once `runs` (the first page of the early search) and,
 * when the URL names no cards, `keys` (the early run keys) are in. They go through the page's own
 * client (api()): their answers are handed to the cards here, not kept as early answers.
 */
export function prefetchFirstScreen(
  state: SearchState,
  runs: Promise<readonly Run[]>,
  keys: Promise<RunKeys>,
  viewport: Viewport,
): void {
  const needsKeys = !state.params.has("cards");
  planning = Promise.all([runs, needsKeys ? keys : undefined]).then(
    ([first, runKeys]) => {
      for (const wanted of firstScreenHistories(state, first, runKeys?.metric_keys ?? [], viewport)) {
        const id = idOf(wanted.metricKey, wanted.runIds);
        const kept: Kept = {
          perRun: wanted.perRun,
          answer: fetchSampled(wanted.runIds, wanted.metricKey, undefined, wanted.perRun).catch(() => undefined),
        };
        early.set(id, kept);
        setTimeout(() => {
          if (early.get(id) === kept) early.delete(id);
        }, KEEP_MS);
      }
    },
    // Failures are the page's to report: its own requests fail the same way.
    () => {},
  );
}

/**
 * The early answer for a line card of `metricKey` over `runIds` needing `perRun` points a run,
 * once; undefined when there is none (or it failed): the card then sends its own request.
 */
export async function takeEarlyHistories(
  metricKey: string,
  runIds: readonly string[],
  perRun: number,
): Promise<Map<string, Metric[]> | undefined> {
  await planning;
  const id = idOf(metricKey, runIds);
  const kept = early.get(id);
  if (!kept || kept.perRun < perRun) return undefined;
  early.delete(id);
  return kept.answer;
}
