import { type Page, pageSize } from '@awaken/contract';

/** A parsed page request (see the contract's `pageRequestSchema`). */
export interface ParsedPage {
  cursor?: string;
  limit?: number;
}

/** The page size and the position after which the page starts (cursors are insertion positions). */
export function pageWindow(page: ParsedPage): { limit: number; after: number | undefined } {
  return { limit: pageSize(page.limit), after: page.cursor === undefined ? undefined : Number(page.cursor) };
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
