// Keyboard moves between the rows of the windowed runs table.

/** +1 for the row below (ArrowDown), -1 above (ArrowUp), undefined for other keys or inside text fields. */
export function rowStep(event: {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  target: EventTarget | null;
}): 1 | -1 | undefined {
  if (event.altKey || event.ctrlKey || event.metaKey) return undefined;
  const target = event.target as HTMLElement | null;
  if (target?.closest("input:not([type=checkbox]), textarea, select")) return undefined;
  if (event.key === "ArrowDown") return 1;
  if (event.key === "ArrowUp") return -1;
  return undefined;
}

const FOCUSABLE = "input, a[href], button, [tabindex]";

/**
 * Focuses the first control of cell `column` in the row with `aria-rowindex` `rowIndex` under
 * `container`, waiting a few frames for a row that the scroll just brought into the window.
 */
export function focusInRow(container: HTMLElement, rowIndex: number, column: number, frames = 10): void {
  const row = container.querySelector<HTMLElement>(`[role=row][aria-rowindex="${rowIndex}"]`);
  const cell = row?.children[column];
  const target = cell?.querySelector<HTMLElement>(FOCUSABLE);
  if (target) {
    target.focus();
    return;
  }
  if (frames > 0) requestAnimationFrame(() => focusInRow(container, rowIndex, column, frames - 1));
}
