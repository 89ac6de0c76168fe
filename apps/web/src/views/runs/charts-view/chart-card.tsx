import { useRef, type ReactNode } from "react";
import { CARD_LABELS, cardTitle, formatCard, type CardSpec } from "./card-spec";
import { cardQueue } from "./card-queue";
import { useInView } from "./use-in-view";

export interface ChartCardProps {
  card: CardSpec;
  index: number;
  count: number;
  onMove: (delta: number) => void;
  onWide: (wide: boolean) => void;
  onRemove: () => void;
  /**
   * The chart, rendered (and its data fetched) only once the card is shown (see useInView), given
   * the card's width in pixels then.
   */
  children: (width: number) => ReactNode;
}

/** A card of the charts view: title, move / enlarge / remove buttons, and its chart fetched and drawn when it comes into view. */
export function ChartCard({ card, index, count, onMove, onWide, onRemove, children }: ChartCardProps) {
  const body = useRef<HTMLDivElement>(null);
  // Cards on screen fetch and draw first; cards further down wait until those are drawn and the
  // page is idle (they would compete with them for the server), then draw one at a time.
  const seen = useInView(body, cardQueue);
  const title = cardTitle(card);
  return (
    <article
      className={`chart-card${card.wide ? " wide" : ""}`}
      aria-label={`${title} (${CARD_LABELS[card.type]})`}
      data-card={formatCard(card)}
      data-type={card.type}
    >
      <header>
        <h3 title={card.axes.join(", ")}>{title}</h3>
        <span className="muted card-type">{CARD_LABELS[card.type]}</span>
        <span className="card-actions">
          <button type="button" aria-label={`Move ${title} earlier`} disabled={index === 0} onClick={() => onMove(-1)}>
            ↑
          </button>
          <button
            type="button"
            aria-label={`Move ${title} later`}
            disabled={index === count - 1}
            onClick={() => onMove(1)}
          >
            ↓
          </button>
          <button
            type="button"
            aria-label={`${card.wide ? "Shrink" : "Enlarge"} ${title}`}
            aria-pressed={card.wide}
            onClick={() => onWide(!card.wide)}
          >
            {card.wide ? "⤡" : "⤢"}
          </button>
          <button type="button" aria-label={`Remove ${title}`} onClick={onRemove}>
            ×
          </button>
        </span>
      </header>
      <div ref={body} className="card-body" data-drawn={seen ? "1" : undefined}>
        {seen ? children(body.current?.clientWidth ?? 0) : null}
      </div>
    </article>
  );
}
