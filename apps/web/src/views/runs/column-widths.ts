// Widths of the runs table's columns as the user dragged them, kept in localStorage so that they
// survive a reload and apply to every experiment (a column is named by its id: `metrics.acc`).
import type { ColumnSizingState } from "@tanstack/react-table";

export const WIDTHS_KEY = "tracker.runs.columnWidths";
const MIN = 36;
const MAX = 1000;

/** The saved widths; entries that are not numbers within bounds are dropped (a hand-edited or old value). */
export function parseWidths(text: string | null): ColumnSizingState {
  if (!text) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return {};
  const out: ColumnSizingState = {};
  for (const [id, width] of Object.entries(raw)) {
    if (typeof width === "number" && Number.isFinite(width) && width >= MIN && width <= MAX)
      out[id] = Math.round(width);
  }
  return out;
}

export function loadWidths(storage: Pick<Storage, "getItem"> = localStorage): ColumnSizingState {
  try {
    return parseWidths(storage.getItem(WIDTHS_KEY));
  } catch {
    // Storage refused (private mode, quota): widths simply are not remembered.
    return {};
  }
}

export function saveWidths(widths: ColumnSizingState, storage: Pick<Storage, "setItem"> = localStorage): void {
  try {
    storage.setItem(WIDTHS_KEY, JSON.stringify(widths));
  } catch {
    // As above: not remembered.
  }
}
