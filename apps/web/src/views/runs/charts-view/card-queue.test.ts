import { describe, expect, it } from "vitest";
import { CardQueue } from "./card-queue";

/** A queue whose idle periods the test runs by hand. */
function manual() {
  const idle: (() => void)[] = [];
  const queue = new CardQueue((run) => idle.push(run));
  const runIdle = () => {
    const due = idle.splice(0);
    for (const run of due) run();
  };
  return { queue, runIdle, pending: () => idle.length };
}

describe("CardQueue", () => {
  it("lets waiting cards in one per idle period, in order", () => {
    const { queue, runIdle } = manual();
    const entered: string[] = [];
    queue.wait(() => entered.push("a"));
    queue.wait(() => entered.push("b"));
    expect(entered).toEqual([]);
    runIdle();
    expect(entered).toEqual(["a"]);
    runIdle();
    expect(entered).toEqual(["a", "b"]);
  });

  it("lets none in while a load is under way, and resumes when it ends", () => {
    const { queue, runIdle, pending } = manual();
    const entered: string[] = [];
    const end = queue.begin();
    queue.wait(() => entered.push("a"));
    expect(pending()).toBe(0);
    end();
    end();
    runIdle();
    expect(entered).toEqual(["a"]);
  });

  it("skips an idle period in which a load began, and a card taken out of the queue", () => {
    const { queue, runIdle } = manual();
    const entered: string[] = [];
    const leave = queue.wait(() => entered.push("a"));
    queue.wait(() => entered.push("b"));
    const end = queue.begin();
    runIdle();
    expect(entered).toEqual([]);
    leave();
    end();
    runIdle();
    expect(entered).toEqual(["b"]);
  });
});
