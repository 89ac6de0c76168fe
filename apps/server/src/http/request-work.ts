import type { ServerResponse } from "node:http";

/**
 * When a request is over. Its answer closing is not enough: a handler may go on working after its
 * client has gone (a cut upload still checks its run in the database, then removes its temporary
 * file). Counting such a request as done at its answer's close let a shutdown close the database
 * under handlers still running, and let the in-flight bound (http/in-flight-limit.ts) admit new
 * requests while the work of cut ones went on unbounded.
 *
 * A request is over once its answer has closed and its handler, if one started, has settled. A
 * handler does not start for a request already over (its connection closed before: nobody would
 * get the answer, and nothing counts the request any more).
 */

interface RequestState {
  closed: boolean;
  /** Handlers of the request started and not yet settled. */
  working: number;
  /** Called once when the request is over. */
  waiting: (() => void)[];
}

const states = new WeakMap<ServerResponse, RequestState>();

function settle(state: RequestState): void {
  if (!state.closed || state.working > 0) return;
  const waiting = state.waiting;
  state.waiting = [];
  for (const done of waiting) done();
}

function stateOf(res: ServerResponse): RequestState {
  let state = states.get(res);
  if (!state) {
    const made: RequestState = { closed: res.closed, working: 0, waiting: [] };
    if (!made.closed)
      res.once("close", () => {
        made.closed = true;
        settle(made);
      });
    states.set(res, made);
    state = made;
  }
  return state;
}

/** Calls `done` once the request is over: its answer closed and no handler of it still working. */
export function whenRequestOver(res: ServerResponse, done: () => void): void {
  const state = stateOf(res);
  state.waiting.push(done);
  settle(state);
}

/**
 * Runs a request's handler as part of the request: the request is not over before `work` has
 * settled. Resolves to undefined without running it when the request is already over.
 */
export async function requestWork<T>(res: ServerResponse, work: () => Promise<T>): Promise<T | undefined> {
  const state = stateOf(res);
  if (state.closed && state.working === 0) return undefined;
  state.working++;
  try {
    return await work();
  } finally {
    state.working--;
    settle(state);
  }
}
