/** Milliseconds since the epoch: the unit of every timestamp of the API. */
export const nowMs = (): number => Date.now();
