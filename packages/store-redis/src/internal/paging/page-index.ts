import type { Page } from '@awaken/contract';
import type { Redis } from 'ioredis';
import { toStoreError } from '../connection/redis-error';
import { pageLimit, parseCursor } from './paging';

export interface PageIndexOptions<T> {
  redis: Redis;
  /** A sorted set of ids scored by a unique, increasing sequence number. */
  key: string;
  /** Newest (highest score) first. */
  reverse?: boolean;
  cursor?: string;
  limit?: number;
  /** Loads the records of the ids, in order; `undefined` for ids deleted meanwhile. */
  load(ids: string[]): Promise<(T | undefined)[]>;
  /** Keeps only the records that match the query's filter. */
  accept?(record: T): boolean;
  /** Sends the index read (default: a command of its own on `redis`). */
  range?(read: IndexRead): Promise<string[]>;
}

/** One page read of the index, as its arguments. */
export type IndexRead = [
  'zrangebyscore' | 'zrevrangebyscore',
  string,
  string,
  string,
  'WITHSCORES',
  'LIMIT',
  number,
  number,
];

function sendRange(redis: Redis, read: IndexRead): Promise<string[]> {
  const [name, ...args] = read;
  return name === 'zrevrangebyscore' ? redis.zrevrangebyscore(...args) : redis.zrangebyscore(...args);
}

/**
 * Pages through a sorted-set index; the cursor is the score of the last returned item, so paging is
 * stable while records are added or deleted. Reads are not one snapshot.
 */
export async function pageIndex<T>(options: PageIndexOptions<T>): Promise<Page<T>> {
  const { redis, key, reverse = false } = options;
  const limit = pageLimit(options.limit);
  let after = parseCursor(options.cursor);
  const items: T[] = [];
  let lastScore = 0;
  try {
    for (;;) {
      const bound = after === undefined ? (reverse ? '+inf' : '-inf') : `(${after}`;
      const read: IndexRead = reverse
        ? ['zrevrangebyscore', key, bound, '-inf', 'WITHSCORES', 'LIMIT', 0, limit + 1]
        : ['zrangebyscore', key, bound, '+inf', 'WITHSCORES', 'LIMIT', 0, limit + 1];
      const batch = await (options.range ? options.range(read) : sendRange(redis, read));
      if (batch.length === 0) break;
      const ids = batch.filter((_, index) => index % 2 === 0);
      const records = await options.load(ids);
      for (let index = 0; index < ids.length; index += 1) {
        const score = Number(batch[index * 2 + 1]);
        after = score;
        const record = records[index];
        if (record === undefined || (options.accept && !options.accept(record))) continue;
        if (items.length === limit) return { items, nextCursor: String(lastScore) };
        items.push(record);
        lastScore = score;
      }
      if (ids.length < limit + 1) break;
    }
  } catch (error) {
    throw toStoreError(error);
  }
  return { items };
}

/** Runs one command per id in a pipeline and returns the replies in order. */
export async function pipelined<R>(
  redis: Redis,
  ids: string[],
  add: (pipeline: ReturnType<Redis['pipeline']>, id: string) => void,
): Promise<R[]> {
  const pipeline = redis.pipeline();
  for (const id of ids) add(pipeline, id);
  const replies = (await pipeline.exec()) ?? [];
  return replies.map(([error, reply]) => {
    if (error) throw error;
    return reply as R;
  });
}
