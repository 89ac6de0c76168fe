import { expect } from "vitest";
import { TrackerError } from "../errors.js";

/** The TrackerError a call rejects with; fails the test when it resolves or throws something else. */
export async function trackerError(promise: Promise<unknown>): Promise<TrackerError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(TrackerError);
  return error as TrackerError;
}
