import type { Page } from '@awaken/contract';

/**
 * Up to `maxPages` pages of a listing, each fetched with the cursor the previous one returned: what
 * a client paging through sees (the items of each page and whether there was a next one).
 */
export async function pages<T>(
  list: (cursor: string | undefined) => Promise<Page<T>>,
  maxPages: number,
): Promise<{ items: T[]; more: boolean }[]> {
  const seen: { items: T[]; more: boolean }[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const result = await list(cursor);
    seen.push({ items: result.items, more: result.nextCursor !== undefined });
    if (result.nextCursor === undefined) break;
    cursor = result.nextCursor;
  }
  return seen;
}
