/** Async iteration over the API's keyset-paged lists (`nextCursor`, null on the last page). */

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** The items of a paged list, as `for await` reads them, or collected by `toArray`. */
export interface PageIterator<T> extends AsyncGenerator<T, void, undefined> {
  /**
   * The items in an array: every one, or the first `limit` (then no page past the one that
   * holds the last of them is fetched).
   */
  toArray(options?: { limit?: number }): Promise<T[]>;
}

/**
 * Every item of a keyset-paged list, page by page as the loop asks for them: a `break` fetches
 * no further page. `fetchPage(undefined)` is the first page.
 */
export function paginate<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): PageIterator<T> {
  const items = walk(fetchPage);
  return Object.assign(items, { toArray: (options: { limit?: number } = {}) => collect(items, options.limit ?? Infinity) });
}

async function* walk<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.items;
    if (page.nextCursor == null || page.items.length === 0) return;
    // A cursor seen before would loop for ever (a proxy caching a page, say).
    if (seen.has(page.nextCursor)) throw new Error(`the API answered a cursor it had answered before (${page.nextCursor}); stopping`);
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}

async function collect<T>(items: AsyncGenerator<T, void, undefined>, limit: number): Promise<T[]> {
  if (!(limit >= 0) || (limit !== Infinity && !Number.isInteger(limit))) throw new RangeError(`toArray: limit must be a whole number ≥ 0, not ${limit}`);
  const out: T[] = [];
  if (limit === 0) {
    await items.return();
    return out;
  }
  // The loop's break ends the generator: the page after the limit is never asked for.
  for await (const item of items) if (out.push(item) >= limit) break;
  return out;
}
