/** Async iteration over the API's keyset-paged lists (`nextCursor`, null on the last page). */

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Every item of a keyset-paged list, page by page as the loop asks for them: a `break` fetches
 * no further page. `fetchPage(undefined)` is the first page.
 */
export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
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
