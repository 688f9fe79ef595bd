import { AwakenError, type RunDispatch } from '@awaken/contract';
import type { RedisMailboxStore } from '../../redis-mailbox-store';
import { toStoreError } from '../connection/redis-error';

/** Priority weight of a ready score (`mailbox-prelude.ts`: score = priority * 2^44 + seq). */
const PRIORITY_WEIGHT = 17592186044416;

/**
 * Longest wait for a shard's peek (a read) before the call goes on without that shard. A master that
 * is down (or paused) otherwise holds the claim for the client's whole retry bound — seconds, while
 * the other shards have work. Only the peek is bounded: a claim (a write) is never abandoned while it
 * may still take dispatches.
 */
export const SHARD_PEEK_TIMEOUT_MS = 1_000;

/** `read`, or a retryable `store_failure` once `ms` have passed without its answer. */
function withinPeekTimeout<T>(read: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new AwakenError('store_failure', `a mailbox shard did not answer within ${ms} ms`, {
            retryable: true,
          }),
        ),
      ms,
    );
  });
  read.catch(() => undefined); // a late failure after the timeout is nobody's to handle
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}

/** What a shard would take next: its place in the order of the whole mailbox. */
interface Peeked {
  order: [number, number];
}

/**
 * Takes up to `limit` dispatches over every shard in the order one queue would give them: each
 * shard's next candidates are read (`peek`, in parallel), merged by their order, and each shard is
 * asked to take its share of the best `limit` (`take`, in parallel). What a share missed (another
 * worker was faster, an entry was stale, a delayed dispatch fell due, which only a claim moves into
 * `ready`) is made up by asking the shards in turn, starting at `start`, so no shard starves.
 * Returned in the merged order (made-up ones last). A shard that fails (its master is down) or whose
 * peek does not answer within {@link SHARD_PEEK_TIMEOUT_MS} is left out of the call, so the others keep serving and what they gave is never dropped; the call
 * fails only when it took nothing and a shard failed.
 */
async function shardedTake(
  shards: readonly RedisMailboxStore[],
  limit: number,
  start: number,
  peek: (shard: RedisMailboxStore) => Promise<Peeked[]>,
  take: (shard: RedisMailboxStore, limit: number) => Promise<RunDispatch[]>,
): Promise<{ shard: RedisMailboxStore; dispatch: RunDispatch }[]> {
  if (shards.length === 1) {
    const shard = shards[0] as RedisMailboxStore;
    return (await take(shard, limit)).map((dispatch) => ({ shard, dispatch }));
  }
  // a shard that cannot be read (its master is down) is left out of this call, so the others keep
  // serving; the call fails only when nothing could be taken and a shard failed
  let failure: unknown;
  const settled = await Promise.allSettled(
    shards.map((shard) => withinPeekTimeout(peek(shard), SHARD_PEEK_TIMEOUT_MS)),
  );
  const reachable = settled.map((outcome) => outcome.status === 'fulfilled');
  const heads: Peeked[][] = settled.map((outcome) => {
    if (outcome.status === 'fulfilled') return outcome.value.sort((a, b) => compare(a.order, b.order));
    failure ??= unreachable(outcome.reason);
    return [];
  });
  const attempt = async (shard: RedisMailboxStore, count: number): Promise<RunDispatch[]> => {
    try {
      return await take(shard, count);
    } catch (error) {
      failure ??= unreachable(error);
      return [];
    }
  };
  const merged = heads.flatMap((entries, shard) => entries.map((entry) => ({ ...entry, shard })));
  merged.sort((a, b) => compare(a.order, b.order));
  const shares = shards.map(() => 0);
  for (const entry of merged.slice(0, limit)) shares[entry.shard] = (shares[entry.shard] as number) + 1;
  const taken: { shard: RedisMailboxStore; dispatch: RunDispatch; order: [number, number] }[] = [];
  const firstPass = await Promise.all(
    shards.map((shard, index) =>
      (shares[index] as number) === 0 ? [] : attempt(shard, shares[index] as number),
    ),
  );
  // a shard takes in its own order, the order its candidates were peeked in: the k-th taken has the
  // k-th peeked place (unless another worker was faster; then the places are near enough)
  firstPass.forEach((got, index) => {
    got.forEach((dispatch, position) => {
      const order = heads[index]?.[position]?.order ?? LAST;
      taken.push({ shard: shards[index] as RedisMailboxStore, dispatch, order });
    });
  });
  for (let step = 0; step < shards.length && taken.length < limit; step += 1) {
    const index = (start + step) % shards.length;
    if (!reachable[index]) continue;
    const shard = shards[index] as RedisMailboxStore;
    for (const dispatch of await attempt(shard, limit - taken.length))
      taken.push({ shard, dispatch, order: LAST });
  }
  if (taken.length === 0 && failure !== undefined) throw failure;
  return taken
    .map((entry, index) => ({ ...entry, index }))
    .sort((a, b) => compare(a.order, b.order) || a.index - b.index)
    .map(({ shard, dispatch }) => ({ shard, dispatch }));
}

/**
 * A shard's failure that the others may ride over: a `store_failure` (Redis unreachable, a
 * failover). Anything else (a rejected input) is the same on every shard: thrown at once.
 */
function unreachable(error: unknown): AwakenError {
  const failure = toStoreError(error);
  if (failure.code !== 'store_failure') throw failure;
  return failure;
}

const LAST: [number, number] = [Number.POSITIVE_INFINITY, 0];

function compare(a: [number, number], b: [number, number]): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] - b[1];
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
    async (shard) =>
      (await shard.peekClaimable(input.limit)).map((score) => ({ order: [score, 0] as [number, number] })),
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
      return ids.map((_, index) => ({
        order: [Number(flat[index * 2 + 1]), scores[index] as number] as [number, number],
      }));
    },
    (shard, take) => shard.reclaimExpiredLeases({ limit: take }),
  );
}

/**
 * `claim` with `claimFrom: 'rotating'`: no peek; the shards are asked one after the other, starting
 * at `start` (the next shard on each call of a store), each for what is still missing, until `limit`
 * dispatches are taken or every shard was asked. A claim served by its first shard costs one script
 * call on one master instead of a peek on every shard. Order: each shard's own (priority, then enqueue
 * order); across shards, rotation — a higher-priority dispatch on another shard may wait until the
 * rotation reaches it. A shard that fails (its master is down) is skipped when another shard gave
 * something, so a claim never drops dispatches it already holds; with nothing taken, the failure is
 * thrown.
 */
export async function rotatingClaim(
  shards: readonly RedisMailboxStore[],
  input: { workerId: string; limit: number; leaseMs: number },
  start: number,
): Promise<{ shard: RedisMailboxStore; dispatch: RunDispatch }[]> {
  const taken: { shard: RedisMailboxStore; dispatch: RunDispatch }[] = [];
  let failure: unknown;
  for (let step = 0; step < shards.length && taken.length < input.limit; step += 1) {
    const shard = shards[(start + step) % shards.length] as RedisMailboxStore;
    try {
      for (const dispatch of await shard.claim({ ...input, limit: input.limit - taken.length }))
        taken.push({ shard, dispatch });
    } catch (error) {
      failure ??= unreachable(error);
    }
  }
  if (taken.length === 0 && failure !== undefined) throw failure;
  return taken;
}
