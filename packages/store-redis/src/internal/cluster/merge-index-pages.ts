import type { Page } from '@awaken/contract';
import type { Redis } from 'ioredis';
import { toStoreError } from '../connection/redis-error';
import { pageLimit, parseCursor } from '../paging/paging';

/** One shard's part of an index: a sorted set of ids and how to load their records. */
export interface IndexShard<T> {
  redis: Redis;
  /** Sorted sets of ids sharing the tenant's one score space (ids unique across them). */
  keys: readonly string[];
  /** Loads the records of the ids, in order; `undefined` for ids deleted meanwhile. */
  load(ids: string[]): Promise<(T | undefined)[]>;
}

export interface MergeIndexPagesOptions<T> {
  shards: readonly IndexShard<T>[];
  /** Newest (highest score) first. */
  reverse?: boolean;
  cursor?: string;
  limit?: number;
  /**
   * Keeps only the records that match the query and are still in the index they were read from
   * (`key`: the index of that key in the shard's `keys`). An id read from an index may have moved
   * since, even to another key read in the same round, which is then not one snapshot: refusing the
   * entry of the key the record is no longer in lists it once.
   */
  accept?(record: T, key: number): boolean;
}

interface Entry {
  id: string;
  score: number;
  shard: number;
  /** The index of the key it was read from, in its shard's `keys`. */
  key: number;
}

/**
 * One page of an index split over the shards of a Redis Cluster, merged on read — the same page the
 * single-node store's one index gives (`paging/page-index.ts`): the shards number their entries from
 * one counter, so their indexes share one score space and the cursor stays the score of the last
 * item (opaque, stable while entries are added or deleted). Each round reads the next `limit + 1`
 * entries of every index of every shard (one command each, in parallel), takes the merged entries up
 * to the first score where a shard may have more (so none is skipped), loads them from their shards
 * and keeps going until the page is full. Cost per round: one range read per index per shard and
 * one pipeline per shard for the records.
 */
export async function mergeIndexPages<T>(options: MergeIndexPagesOptions<T>): Promise<Page<T>> {
  const { shards, reverse = false } = options;
  const limit = pageLimit(options.limit);
  let after = parseCursor(options.cursor);
  const items: T[] = [];
  let lastScore = 0;
  const before = (a: number, b: number) => (reverse ? a > b : a < b);
  try {
    for (;;) {
      const bound = after === undefined ? (reverse ? '+inf' : '-inf') : `(${after}`;
      const reads = shards.flatMap((shard, index) =>
        shard.keys.map(async (key, keyIndex) => ({
          index,
          keyIndex,
          flat: reverse
            ? await shard.redis.zrevrangebyscore(key, bound, '-inf', 'WITHSCORES', 'LIMIT', 0, limit + 1)
            : await shard.redis.zrangebyscore(key, bound, '+inf', 'WITHSCORES', 'LIMIT', 0, limit + 1),
        })),
      );
      const entries: Entry[] = [];
      let frontier: number | undefined; // the last score every index is known to be read up to
      for (const { index, keyIndex, flat } of await Promise.all(reads)) {
        for (let at = 0; at < flat.length; at += 2) {
          entries.push({ id: flat[at] as string, score: Number(flat[at + 1]), shard: index, key: keyIndex });
        }
        if (flat.length === (limit + 1) * 2) {
          const last = Number(flat[flat.length - 1]);
          if (frontier === undefined || before(last, frontier)) frontier = last;
        }
      }
      const safe = entries
        .filter((entry) => frontier === undefined || !before(frontier, entry.score))
        .sort((a, b) => (reverse ? b.score - a.score : a.score - b.score));
      if (safe.length === 0) break;
      const records = await loadAll(shards, safe);
      for (let at = 0; at < safe.length; at += 1) {
        const entry = safe[at] as Entry;
        after = entry.score;
        const record = records[at];
        if (record === undefined || (options.accept && !options.accept(record, entry.key))) continue;
        if (items.length === limit) return { items, nextCursor: String(lastScore) };
        items.push(record);
        lastScore = entry.score;
      }
      if (frontier === undefined) break;
    }
  } catch (error) {
    throw toStoreError(error);
  }
  return { items };
}

/** The records of the entries, in their order, each shard's loaded in one call. */
async function loadAll<T>(shards: readonly IndexShard<T>[], entries: Entry[]): Promise<(T | undefined)[]> {
  const out: (T | undefined)[] = new Array(entries.length);
  await Promise.all(
    shards.map(async (shard, index) => {
      const positions: number[] = [];
      entries.forEach((entry, at) => {
        if (entry.shard === index) positions.push(at);
      });
      if (positions.length === 0) return;
      const records = await shard.load(positions.map((at) => (entries[at] as Entry).id));
      positions.forEach((at, n) => {
        out[at] = records[n];
      });
    }),
  );
  return out;
}
