// The cards of the runs page's charts view as they live in the URL: `cards=line:metrics.loss,
// bar*:metrics.acc,scatter:params.lr:metrics.acc`. A `*` after the type marks an enlarged card.
// Keys never hold `:` or `,` (the server refuses them in metric, param and tag keys).

export const CARD_TYPES = ["line", "bar", "scatter", "parallel"] as const;
export type CardType = (typeof CARD_TYPES)[number];

export const CARD_LABELS: Record<CardType, string> = {
  line: "Line (history)",
  bar: "Bar (latest value)",
  scatter: "Scatter",
  parallel: "Parallel coordinates",
};

export interface CardSpec {
  type: CardType;
  /** Axis names, `metrics.<key>` or `params.<key>`: one for line and bar, two for scatter (x, y), two or more for parallel. */
  axes: string[];
  /** Spans the whole row. */
  wide: boolean;
}

/** The URL value standing for "no cards at all" (an absent `cards` means the default cards). */
export const NO_CARDS = "none";

/** The most cards the default (one line chart per metric) shows. */
export const DEFAULT_CARD_LIMIT = 12;

const AXIS = /^(metrics|params)\.[^:,]+$/;

function axesFit(type: CardType, axes: readonly string[]): boolean {
  if (!axes.every((a) => AXIS.test(a))) return false;
  if (type === "line") return axes.length === 1 && axes[0]!.startsWith("metrics.");
  if (type === "bar") return axes.length === 1;
  if (type === "scatter") return axes.length === 2;
  return axes.length >= 2;
}

/** A card from its URL text; undefined for text that names no valid card (ignored, never an error). */
export function parseCard(text: string): CardSpec | undefined {
  const [head = "", ...axes] = text.split(":");
  const wide = head.endsWith("*");
  const type = (wide ? head.slice(0, -1) : head) as CardType;
  if (!CARD_TYPES.includes(type) || !axesFit(type, axes)) return undefined;
  return { type, axes, wide };
}

export function formatCard(card: CardSpec): string {
  return [`${card.type}${card.wide ? "*" : ""}`, ...card.axes].join(":");
}

/** A stable identity for a card among others (the same chart twice is one card). */
export function cardId(card: CardSpec): string {
  return [card.type, ...card.axes].join(":");
}

/** The cards of the URL's list; `undefined` (no list) gives one line chart per metric key. */
export function readCards(list: readonly string[] | undefined, metricKeys: readonly string[]): CardSpec[] {
  if (list === undefined || list.length === 0)
    return metricKeys
      .slice(0, DEFAULT_CARD_LIMIT)
      .map((key) => ({ type: "line", axes: [`metrics.${key}`], wide: false }));
  if (list.length === 1 && list[0] === NO_CARDS) return [];
  const seen = new Set<string>();
  const cards: CardSpec[] = [];
  for (const text of list) {
    const card = parseCard(text);
    if (!card || seen.has(cardId(card))) continue;
    seen.add(cardId(card));
    cards.push(card);
  }
  return cards;
}

/** The URL list for `cards` ([NO_CARDS] when empty, so the default does not come back). */
export function writeCards(cards: readonly CardSpec[]): string[] {
  return cards.length ? cards.map(formatCard) : [NO_CARDS];
}

/** `cards` with the card at `index` moved by `delta` places (clamped at the ends). */
export function moveCard(cards: readonly CardSpec[], index: number, delta: number): CardSpec[] {
  const to = Math.max(0, Math.min(cards.length - 1, index + delta));
  const next = [...cards];
  const [card] = next.splice(index, 1);
  if (card) next.splice(to, 0, card);
  return next;
}

/** A card's title: the metric for line and bar, `y vs x` for a scatter, the axes for parallel coordinates. */
export function cardTitle(card: CardSpec): string {
  const short = (axis: string) => axis.replace(/^(metrics|params)\./, "");
  if (card.type === "scatter") return `${short(card.axes[1]!)} vs ${short(card.axes[0]!)}`;
  if (card.type === "parallel") return card.axes.map(short).join(" · ");
  return short(card.axes[0]!);
}

/** The metric and param keys whose latest values the cards read from the runs (line charts fetch histories instead). */
export function cardColumnKeys(cards: readonly CardSpec[]): { metrics: string[]; params: string[] } {
  const axes = cards.filter((c) => c.type !== "line").flatMap((c) => c.axes);
  const of = (kind: string) => [
    ...new Set(axes.filter((a) => a.startsWith(`${kind}.`)).map((a) => a.slice(kind.length + 1))),
  ];
  return { metrics: of("metrics"), params: of("params") };
}
