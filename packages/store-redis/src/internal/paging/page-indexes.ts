import type { Page } from '@awaken/contract';
import type { Redis } from 'ioredis';
import { toStoreError } from '../connection/redis-error';
import { pageLimit, parseCursor } from './paging';

export interface PageIndexesOptions<T> {
  redis: Redis;
  /** Sorted sets of ids sharing one score space (a unique, increasing sequence number); an id is in one. */
  keys: string[];
  cursor?: string;
  limit?: number;
  /** Loads the records of the ids, in order; `undefined` for ids deleted meanwhile. */
  load(ids: string[]): Promise<(T | undefined)[]>;
  /** Keeps only the records that still match (an id read from one index may have moved since). */
  accept(record: T): boolean;
}

/**
 * One page of the union of several sorted-set indexes, newest (highest score) first; the cursor is the
 * score of the last returned item. The top `limit + 1` of every index are read in one MULTI (one
 * consistent reading: each id appears once), merged by score, and only the records of the page are
 * loaded; a record that moved out of the union between the index read and its load is skipped (the
 * page comes back shorter, its cursor still right). Cost: `keys.length` range reads and one pipeline.
 */
export async function pageIndexes<T>(options: PageIndexesOptions<T>): Promise<Page<T>> {
  const limit = pageLimit(options.limit);
  const after = parseCursor(options.cursor);
  const bound = after === undefined ? '+inf' : `(${after}`;
  try {
    const multi = options.redis.multi();
    for (const key of options.keys)
      multi.zrevrangebyscore(key, bound, '-inf', 'WITHSCORES', 'LIMIT', 0, limit + 1);
    const replies = (await multi.exec()) ?? [];
    const entries: { id: string; score: number }[] = [];
    for (const [error, reply] of replies) {
      if (error) throw error;
      const flat = reply as string[];
      for (let index = 0; index < flat.length; index += 2) {
        entries.push({ id: flat[index] as string, score: Number(flat[index + 1]) });
      }
    }
    entries.sort((a, b) => b.score - a.score);
    const page = entries.slice(0, limit);
    const records = page.length === 0 ? [] : await options.load(page.map((entry) => entry.id));
    const items: T[] = [];
    records.forEach((record) => {
      if (record !== undefined && options.accept(record)) items.push(record);
    });
    const last = page.at(-1);
    return entries.length > limit && last !== undefined
      ? { items, nextCursor: String(last.score) }
      : { items };
  } catch (error) {
    throw toStoreError(error);
  }
}
