import type { Page, PageRequest, RunDispatch, RunDispatchStatus } from '@awaken/contract';
import type { Redis } from 'ioredis';
import { decodeDispatch } from './dispatch-codec';
import { pageLimit, parseCursor } from './paging';
import { toStoreError } from './redis-error';

/**
 * Pages through a thread's dispatches (oldest first) by enqueue seq. Reads are not one snapshot:
 * a dispatch changing status mid-page shows its status at the moment it was read.
 */
export async function listThreadDispatches(
  redis: Redis,
  prefix: string,
  threadId: string,
  query: PageRequest & { status?: RunDispatchStatus[] },
): Promise<Page<RunDispatch>> {
  const limit = pageLimit(query.limit);
  const wanted = query.status && query.status.length > 0 ? new Set(query.status) : undefined;
  const indexKey = `${prefix}t:${threadId}:a`;
  let after = parseCursor(query.cursor);
  const items: RunDispatch[] = [];
  const scores: number[] = [];
  try {
    for (;;) {
      const min = after === undefined ? '-inf' : `(${after}`;
      const batch = await redis.zrangebyscore(indexKey, min, '+inf', 'WITHSCORES', 'LIMIT', 0, limit + 1);
      if (batch.length === 0) break;
      const pipeline = redis.pipeline();
      for (let index = 0; index < batch.length; index += 2) pipeline.hgetall(`${prefix}d:${batch[index]}`);
      const hashes = (await pipeline.exec()) ?? [];
      for (let index = 0; index < hashes.length; index += 1) {
        const [error, flat] = hashes[index] ?? [];
        if (error) throw error;
        const score = Number(batch[index * 2 + 1]);
        after = score;
        const record = flat as Record<string, string>;
        if (Object.keys(record).length === 0) continue;
        const dispatch = decodeDispatch(Object.entries(record).flat());
        if (wanted && !wanted.has(dispatch.status)) continue;
        if (items.length === limit) return { items, nextCursor: String(scores[scores.length - 1]) };
        items.push(dispatch);
        scores.push(score);
      }
      if (batch.length < (limit + 1) * 2) break;
    }
  } catch (error) {
    throw toStoreError(error);
  }
  return { items };
}
