import { AwakenError, type Page, type PageRequest } from '@awaken/contract';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1000;

/** The page size of a request: 50 by default, capped at 1000; anything but a positive integer is rejected. */
export function pageLimit(page: PageRequest | undefined): number {
  const limit = page?.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new AwakenError('validation_failed', `page limit must be a positive integer, got ${limit}`);
  }
  return Math.min(limit, MAX_LIMIT);
}

/** The position a cursor names (an insertion sequence number), or undefined for the first page. */
export function decodeCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  const position = Number(cursor);
  if (!Number.isInteger(position) || position < 0) {
    throw new AwakenError('validation_failed', `invalid page cursor ${JSON.stringify(cursor)}`);
  }
  return position;
}

/**
 * One page of `entries` (already ordered and filtered by the cursor). Cursors are insertion sequence
 * numbers, so deleting or adding items between pages never skips or repeats the ones that remain.
 */
export function toPage<T>(entries: Iterable<{ position: number; item: T }>, limit: number): Page<T> {
  const items: T[] = [];
  let lastPosition = 0;
  for (const entry of entries) {
    if (items.length === limit) return { items, nextCursor: String(lastPosition) };
    items.push(entry.item);
    lastPosition = entry.position;
  }
  return { items };
}
