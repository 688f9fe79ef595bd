import { pageSize } from '@awaken/contract';

/** The page size of a parsed page request: 50 by default, capped at 1000. */
export function pageLimit(limit: number | undefined): number {
  return pageSize(limit);
}

/** Cursors are the sort score of the last item returned, as a decimal string (already validated). */
export function parseCursor(cursor: string | undefined): number | undefined {
  return cursor === undefined ? undefined : Number(cursor);
}
