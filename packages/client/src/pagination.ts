/** One page of a list or search answer. */
export interface Page<T> {
  items: T[];
  /** Token of the next page; absent on the last page. */
  nextPageToken?: string;
}

/** Fetches the page that starts at `pageToken` (the first page when undefined). */
export type PageFetcher<T> = (pageToken: string | undefined) => Promise<Page<T>>;

/**
 * The results of a paginated operation. Iterating with `for await` yields every item of every page,
 * fetching the next page only when the previous one is used up; each new iteration starts again at
 * the first page. Nothing is fetched before iteration starts.
 */
export class Paginated<T> implements AsyncIterable<T> {
  readonly #fetchPage: PageFetcher<T>;

  constructor(fetchPage: PageFetcher<T>) {
    this.#fetchPage = fetchPage;
  }

  /** Yields whole pages, each with the token of the page after it. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let token: string | undefined;
    const seen = new Set<string>();
    do {
      const page = await this.#fetchPage(token);
      yield page;
      token = page.nextPageToken || undefined;
      // A server that hands out the same token twice would make this loop forever.
      if (token !== undefined) {
        if (seen.has(token)) return;
        seen.add(token);
      }
    } while (token !== undefined);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Collects the items into an array, stopping after `limit` items when given. */
  async toArray(limit: number = Infinity): Promise<T[]> {
    const items: T[] = [];
    if (limit <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }

  /** The first item, or undefined when there is none; fetches one page only. */
  async first(): Promise<T | undefined> {
    const [item] = await this.toArray(1);
    return item;
  }
}
