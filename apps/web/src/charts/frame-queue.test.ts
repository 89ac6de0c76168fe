import { describe, expect, it } from "vitest";
import { FrameQueue } from "./frame-queue";

/** A queue whose paints the test runs by hand, with a clock each build advances by `cost` ms. */
function manual(cost: number) {
  const paints: (() => void)[] = [];
  let clock = 0;
  const queue = new FrameQueue(
    (run) => paints.push(run),
    () => clock,
    6,
  );
  const paint = () => {
    for (const run of paints.splice(0)) run();
  };
  const builds: string[] = [];
  const build = (name: string) => () => {
    clock += cost;
    builds.push(name);
  };
  return { queue, paint, builds, build, pending: () => paints.length };
}

describe("FrameQueue", () => {
  it("builds nothing before a paint, then in order", () => {
    const { queue, paint, builds, build } = manual(1);
    queue.add(build("a"));
    queue.add(build("b"));
    expect(builds).toEqual([]);
    paint();
    expect(builds).toEqual(["a", "b"]);
  });

  it("builds one heavy chart a frame, the rest after the next paints", () => {
    const { queue, paint, builds, build, pending } = manual(8);
    for (const name of ["a", "b", "c"]) queue.add(build(name));
    paint();
    expect(builds).toEqual(["a"]);
    expect(pending()).toBe(1);
    paint();
    expect(builds).toEqual(["a", "b"]);
    paint();
    expect(builds).toEqual(["a", "b", "c"]);
    expect(pending()).toBe(0);
  });

  it("fits light charts in one frame up to its budget", () => {
    const { queue, paint, builds, build } = manual(2);
    for (const name of ["a", "b", "c", "d", "e"]) queue.add(build(name));
    paint();
    // 0 -> 2 -> 4 -> 6: the third build ends the budget.
    expect(builds).toEqual(["a", "b", "c"]);
    paint();
    expect(builds).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("skips a build taken out of the queue, and asks for no paint when none waits", () => {
    const { queue, paint, builds, build, pending } = manual(1);
    const cancel = queue.add(build("a"));
    queue.add(build("b"));
    cancel();
    cancel();
    paint();
    expect(builds).toEqual(["b"]);
    expect(pending()).toBe(0);
  });

  it("goes on with the others when a build throws", () => {
    const { queue, paint, builds, build } = manual(8);
    queue.add(() => {
      throw new Error("no canvas");
    });
    queue.add(build("b"));
    expect(paint).toThrow("no canvas");
    paint();
    expect(builds).toEqual(["b"]);
  });
});
