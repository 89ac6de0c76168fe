import { useEffect, useRef } from "react";

export type SelectAllState = "none" | "some" | "all";

/** How many of the loaded runs are ticked: none, some (the box shows a dash) or all. */
export function selectAllState(loaded: readonly string[], selected: readonly string[]): SelectAllState {
  const chosen = new Set(selected);
  const count = loaded.filter((id) => chosen.has(id)).length;
  if (count === 0) return "none";
  return count === loaded.length ? "all" : "some";
}

/**
 * The selection after a click on the heading's box: every loaded run ticked, or (when all were)
 * none of them; ticked runs that are not loaded (another filter) stay as they are.
 */
export function toggleAll(loaded: readonly string[], selected: readonly string[]): string[] {
  const inTable = new Set(loaded);
  const others = selected.filter((id) => !inTable.has(id));
  return selectAllState(loaded, selected) === "all" ? others : [...others, ...loaded];
}

/** The runs table's heading check box: ticks every loaded run; a dash when only some are ticked. */
export function SelectAll({
  loaded,
  selected,
  onChange,
}: {
  loaded: readonly string[];
  selected: readonly string[];
  onChange: (next: string[]) => void;
}) {
  const box = useRef<HTMLInputElement>(null);
  const state = selectAllState(loaded, selected);
  useEffect(() => {
    if (box.current) box.current.indeterminate = state === "some";
  }, [state]);
  return (
    <input
      ref={box}
      type="checkbox"
      aria-label={state === "all" ? "Deselect all loaded runs" : `Select all ${loaded.length} loaded runs`}
      checked={state === "all"}
      disabled={loaded.length === 0}
      onChange={() => onChange(toggleAll(loaded, selected))}
    />
  );
}
