import {
  type Page,
  type PageRequest,
  type RunDispatch,
  type RunDispatchStatus,
  mailboxStoreInputs as inputs,
} from '@awaken/contract';
import type { RedisMailboxStore } from '../../redis-mailbox-store';
import { toStoreError } from '../connection/redis-error';
import { mailboxKeys } from '../keys/mailbox-keys';
import { pageLimit, parseCursor } from '../paging/paging';

/**
 * One page of `listDispatchesByStatus` over every shard, newest first. The shards number their
 * dispatches from one counter (see ShardedRedisMailboxStore), so their status indexes share one
 * score space: the top `limit + 1` of each shard's index are read (in parallel, one command each),
 * merged by score, and only the page's dispatches are loaded, each from its shard. The cursor is the
 * score of the last item, as on a single node; a dispatch whose status changed between the index
 * read and its load is skipped (the page comes back shorter, its cursor still right).
 */
export async function mergeStatusPages(
  shards: readonly RedisMailboxStore[],
  status: RunDispatchStatus,
  page?: PageRequest,
): Promise<Page<RunDispatch>> {
  const parsed = inputs.listDispatchesByStatus.parse({ ...page, status });
  const limit = pageLimit(parsed.limit);
  const after = parseCursor(parsed.cursor);
  const bound = after === undefined ? '+inf' : `(${after}`;
  try {
    const heads = await Promise.all(
      shards.map((shard) =>
        shard.redis.zrevrangebyscore(
          mailboxKeys(shard.prefix).withStatus(status),
          bound,
          '-inf',
          'WITHSCORES',
          'LIMIT',
          0,
          limit + 1,
        ),
      ),
    );
    const entries: { id: string; score: number; shard: RedisMailboxStore }[] = [];
    heads.forEach((flat, index) => {
      for (let at = 0; at < flat.length; at += 2) {
        entries.push({
          id: flat[at] as string,
          score: Number(flat[at + 1]),
          shard: shards[index] as RedisMailboxStore,
        });
      }
    });
    entries.sort((a, b) => b.score - a.score);
    const chosen = entries.slice(0, limit);
    const loaded = await Promise.all(chosen.map((entry) => entry.shard.loadDispatch(entry.id)));
    const items = loaded.filter((dispatch): dispatch is RunDispatch => dispatch?.status === status);
    const last = chosen.at(-1);
    return entries.length > limit && last !== undefined
      ? { items, nextCursor: String(last.score) }
      : { items };
  } catch (error) {
    throw toStoreError(error);
  }
}
