import { AwakenError } from '@awaken/contract';

/** `limit` defaults to 50 and is capped at 1000 (contract `PageRequest`). */
export function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return 50;
  return Math.min(1000, Math.max(1, Math.floor(limit)));
}

/** Cursors are the sort score of the last item returned, as a decimal string. */
export function parseCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  const value = Number(cursor);
  if (!Number.isFinite(value)) throw new AwakenError('validation_failed', `invalid cursor: ${cursor}`);
  return value;
}
