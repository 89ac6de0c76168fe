import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";
import type { CardQueue } from "./card-queue";

function onScreen(el: Element): boolean {
  const box = el.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight && box.right > 0 && box.left < window.innerWidth;
}

/**
 * True once the element is shown: at once when it is on screen at its first layout (before the
 * first paint), when it scrolls into view, or when `queue` lets it in (idle, after the loads under
 * way); from then on (a card that was drawn stays drawn). Without IntersectionObserver (tests in
 * jsdom) it is true at once.
 */
export function useInView(ref: RefObject<Element | null>, queue?: CardQueue): boolean {
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === "undefined");
  // The queue's turn counts as a load until the chart it lets in has begun its own (children's
  // effects run before this component's): the next card waits for that one.
  const entered = useRef<(() => void) | undefined>(undefined);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!seen && el && onScreen(el)) setSeen(true);
  }, [ref, seen]);
  useEffect(() => {
    if (seen) {
      entered.current?.();
      entered.current = undefined;
      return;
    }
    const el = ref.current;
    if (!el) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setSeen(true);
    });
    observer.observe(el);
    const leave = queue?.wait(() => {
      entered.current = queue.begin();
      setSeen(true);
    });
    return () => {
      observer.disconnect();
      leave?.();
    };
  }, [ref, seen, queue]);
  // A card removed while its turn is under way ends it.
  useEffect(() => () => entered.current?.(), []);
  return seen;
}
