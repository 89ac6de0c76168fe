import { useState } from "react";
import { attempt } from "../api/use-async";

/**
 * Runs the actions of an editor: keeps the last action's error for display, calls `onChanged` after
 * each one that succeeds, and gives the error (undefined on success) back to the caller.
 */
export function useAction(onChanged: () => void): {
  error: Error | undefined;
  run: (action: () => Promise<unknown>) => Promise<Error | undefined>;
} {
  const [error, setError] = useState<Error | undefined>();
  const run = async (action: () => Promise<unknown>) => {
    const failure = await attempt(action);
    setError(failure);
    if (!failure) onChanged();
    return failure;
  };
  return { error, run };
}
