import type { RunDispatch } from '@awaken/contract';
import type { RedisMailboxStore } from '../../redis-mailbox-store';
import { toStoreError } from '../connection/redis-error';

/** Priority weight of a ready score (`mailbox-prelude.ts`: score = priority * 2^44 + seq). */
const PRIORITY_WEIGHT = 17592186044416;

/** A dispatch a shard would take next, and its place in the order of the whole mailbox. */
interface Peeked {
  id: string;
  order: [number, number];
}

/**
 * Takes up to `limit` dispatches over every shard in the order one queue would give them: each
 * shard's next candidates are read (`peek`, in parallel), merged by their order, and each shard is
 * asked to take its share of the best `limit` (`take`, in parallel). What a share missed (another
 * worker was faster, an entry was stale, a delayed dispatch fell due, which only a claim moves into
 * `ready`) is made up by asking the shards in turn, starting at `start`, so no shard starves.
 * Returned in the merged order (made-up ones last).
 */
async function shardedTake(
  shards: readonly RedisMailboxStore[],
  limit: number,
  start: number,
  peek: (shard: RedisMailboxStore) => Promise<Peeked[]>,
  take: (shard: RedisMailboxStore, limit: number) => Promise<RunDispatch[]>,
): Promise<{ shard: RedisMailboxStore; dispatch: RunDispatch }[]> {
  let heads: Peeked[][];
  try {
    heads = await Promise.all(shards.map(peek));
  } catch (error) {
    throw toStoreError(error);
  }
  const merged = heads.flatMap((entries, shard) => entries.map((entry) => ({ ...entry, shard })));
  merged.sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1]);
  const shares = shards.map(() => 0);
  const rank = new Map<string, number>();
  merged.slice(0, limit).forEach((entry, index) => {
    shares[entry.shard] = (shares[entry.shard] as number) + 1;
    rank.set(entry.id, index);
  });
  const taken: { shard: RedisMailboxStore; dispatch: RunDispatch }[] = [];
  const firstPass = await Promise.all(
    shards.map((shard, index) =>
      (shares[index] as number) === 0 ? [] : take(shard, shares[index] as number),
    ),
  );
  firstPass.forEach((got, index) => {
    for (const dispatch of got) taken.push({ shard: shards[index] as RedisMailboxStore, dispatch });
  });
  for (let step = 0; step < shards.length && taken.length < limit; step += 1) {
    const shard = shards[(start + step) % shards.length] as RedisMailboxStore;
    for (const dispatch of await take(shard, limit - taken.length)) taken.push({ shard, dispatch });
  }
  const place = (dispatch: RunDispatch) => rank.get(dispatch.dispatchId) ?? Number.POSITIVE_INFINITY;
  return taken.sort((a, b) => place(a.dispatch) - place(b.dispatch));
}

/**
 * `claim` over every shard: the shards' ready queues share one score space (priority, then one
 * enqueue counter for the whole mailbox), so the merged heads give the single-node claim order.
 */
export function shardedClaim(
  shards: readonly RedisMailboxStore[],
  input: { workerId: string; limit: number; leaseMs: number },
  start: number,
) {
  return shardedTake(
    shards,
    input.limit,
    start,
    async (shard) => {
      const flat = await shard.redis.zrange(`${shard.prefix}ready`, 0, input.limit - 1, 'WITHSCORES');
      const peeked: Peeked[] = [];
      for (let at = 0; at < flat.length; at += 2)
        peeked.push({ id: flat[at] as string, order: [Number(flat[at + 1]), 0] });
      return peeked;
    },
    (shard, limit) => shard.claim({ ...input, limit }),
  );
}

/**
 * `reclaimExpiredLeases` over every shard: earliest deadline first, equal deadlines in enqueue order
 * (the seq of each candidate's score), as on a single node.
 */
export function shardedReclaim(shards: readonly RedisMailboxStore[], limit: number, start: number) {
  return shardedTake(
    shards,
    limit,
    start,
    async (shard) => {
      const now = await shard.now();
      const flat = await shard.redis.zrangebyscore(
        `${shard.prefix}leases`,
        '-inf',
        `(${now}`,
        'WITHSCORES',
        'LIMIT',
        0,
        limit,
      );
      const ids = flat.filter((_, index) => index % 2 === 0);
      if (ids.length === 0) return [];
      const pipeline = shard.redis.pipeline();
      for (const id of ids) pipeline.hget(`${shard.prefix}d:${id}`, 'q');
      const scores = ((await pipeline.exec()) ?? []).map(([, reply]) => Number(reply ?? 0) % PRIORITY_WEIGHT);
      return ids.map((id, index) => ({ id, order: [Number(flat[index * 2 + 1]), scores[index] as number] }));
    },
    (shard, take) => shard.reclaimExpiredLeases({ limit: take }),
  );
}
