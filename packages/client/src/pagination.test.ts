import { describe, expect, it } from "vitest";
import { Paginated, type Page } from "./pagination.js";

/** A fetcher over `pages`, recording the tokens it was called with. */
function fakePages(pages: Array<Page<number>>) {
  const calls: Array<string | undefined> = [];
  const fetcher = async (token: string | undefined): Promise<Page<number>> => {
    calls.push(token);
    return pages[token === undefined ? 0 : Number(token)];
  };
  return { calls, fetcher };
}

const threePages = (): Array<Page<number>> => [
  { items: [1, 2], nextPageToken: "1" },
  { items: [3, 4], nextPageToken: "2" },
  { items: [5] },
];

describe("Paginated", () => {
  it("yields every item of every page, passing each next_page_token back", async () => {
    const { calls, fetcher } = fakePages(threePages());
    const items: number[] = [];
    for await (const item of new Paginated(fetcher)) items.push(item);
    expect(items).toEqual([1, 2, 3, 4, 5]);
    expect(calls).toEqual([undefined, "1", "2"]);
  });

  it("fetches nothing until iterated and only the pages it needs", async () => {
    const { calls, fetcher } = fakePages(threePages());
    const paginated = new Paginated(fetcher);
    expect(calls).toEqual([]);
    expect(await paginated.first()).toBe(1);
    expect(calls).toEqual([undefined]);
    expect(await paginated.toArray(3)).toEqual([1, 2, 3]);
    expect(calls).toEqual([undefined, undefined, "1"]);
  });

  it("exposes whole pages", async () => {
    const { fetcher } = fakePages(threePages());
    const sizes: number[] = [];
    for await (const page of new Paginated(fetcher).pages()) sizes.push(page.items.length);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it("handles an empty result and an empty-string token as the end", async () => {
    expect(await new Paginated(fakePages([{ items: [] }]).fetcher).toArray()).toEqual([]);
    expect(await new Paginated(fakePages([{ items: [7], nextPageToken: "" }]).fetcher).toArray()).toEqual([7]);
    expect(await new Paginated(fakePages(threePages()).fetcher).first()).toBe(1);
    expect(await new Paginated(fakePages([{ items: [] }]).fetcher).first()).toBeUndefined();
  });

  it("stops when the server repeats a token instead of looping forever", async () => {
    let calls = 0;
    const paginated = new Paginated<number>(async () => {
      calls += 1;
      return { items: [calls], nextPageToken: "same" };
    });
    expect(await paginated.toArray()).toEqual([1, 2]);
  });

  it("propagates a page's error to the iteration", async () => {
    const paginated = new Paginated<number>(async (token) => {
      if (token) throw new Error("page 2 failed");
      return { items: [1], nextPageToken: "x" };
    });
    await expect(paginated.toArray()).rejects.toThrow("page 2 failed");
  });
});
