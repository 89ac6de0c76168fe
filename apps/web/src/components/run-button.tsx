import type { ReactNode } from "react";
import type { useAction } from "./use-action";

/**
 * A button of an editor that runs one action through useAction's `run`, which shows the action's
 * error and refreshes the page after it succeeds (delete a tag, remove an alias, ...).
 */
export function RunButton({
  label,
  run,
  action,
  children,
}: {
  /** The accessible name, which says what the button acts on: "Delete tag lr". */
  label: string;
  run: ReturnType<typeof useAction>["run"];
  action: () => Promise<unknown>;
  children: ReactNode;
}) {
  return (
    <button type="button" aria-label={label} onClick={() => void run(action)}>
      {children}
    </button>
  );
}
