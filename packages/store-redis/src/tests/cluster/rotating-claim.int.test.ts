import { AwakenError } from '@awaken/contract';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { threadShard } from '../../internal/cluster/cluster-topology';
import { SHARD_PEEK_TIMEOUT_MS } from '../../internal/cluster/sharded-claim';
import { ShardedRedisMailboxStore } from '../../sharded-redis-mailbox-store';
import { clusterClient, deleteClusterKeys } from '../../../test-support/redis-cluster-harness';
import { uniquePrefix } from '../../../test-support/redis-harness';

// `claimFrom: 'rotating'`: a claim asks one shard at a time (the next on each call), topping up from
// the following shards; no peek of every shard.

const client = clusterClient(inject('redisClusterNodes'));
const opened: ShardedRedisMailboxStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) {
    await store.close();
    await deleteClusterKeys(client, store.prefix);
  }
});
afterAll(async () => {
  await client.quit();
});

function open(prefix = uniquePrefix('rotate')): ShardedRedisMailboxStore {
  const store = new ShardedRedisMailboxStore({
    redis: client as never,
    prefix,
    shards: 3,
    claimFrom: 'rotating',
  });
  opened.push(store);
  return store;
}

/** `count` thread ids of each shard (of 3), `s<shard>-<n>`. */
function threadsPerShard(count: number): string[][] {
  const out: string[][] = [[], [], []];
  for (let n = 0; out.some((list) => list.length < count); n += 1) {
    const id = `thread-${n}`;
    const list = out[threadShard(id, 3)] as string[];
    if (list.length < count) list.push(id);
  }
  return out;
}

describe("the sharded mailbox's rotating claims", () => {
  it('takes from the next shard on each call, in enqueue order within a shard, topping up when one runs short', async () => {
    const store = open();
    const threads = threadsPerShard(3);
    for (const list of threads)
      for (const threadId of list) await store.enqueue({ threadId, runId: `run-${threadId}` });
    const shardsOfClaims: number[] = [];
    const perShard: string[][] = [[], [], []];
    for (let call = 0; call < 6; call += 1) {
      const [dispatch] = await store.claim({ workerId: 'w', limit: 1, leaseMs: 60_000 });
      const shard = threadShard(dispatch?.threadId as string, 3);
      shardsOfClaims.push(shard);
      perShard[shard]?.push(dispatch?.threadId as string);
    }
    // every shard in turn: the same rotation twice
    expect(new Set(shardsOfClaims.slice(0, 3))).toEqual(new Set([0, 1, 2]));
    expect(shardsOfClaims.slice(3)).toEqual(shardsOfClaims.slice(0, 3));
    expect(perShard).toEqual(threads.map((list) => list.slice(0, 2)));
    // three left, one per shard: one call takes them all
    const rest = await store.claim({ workerId: 'w', limit: 10, leaseMs: 60_000 });
    expect(rest.map((dispatch) => dispatch.threadId).sort()).toEqual(threads.map((list) => list[2]).sort());
    expect(await store.claim({ workerId: 'w', limit: 10, leaseMs: 60_000 })).toEqual([]);
  });

  it('hands each dispatch to one of two concurrent claimers, none lost', async () => {
    const store = open();
    const other = open(store.prefix);
    const total = 300;
    await Promise.all(
      Array.from({ length: total }, (_, index) =>
        store.enqueue({ threadId: `t${index % 90}`, runId: `r${index}` }),
      ),
    );
    const claimed: string[] = [];
    const worker = async (mailbox: ShardedRedisMailboxStore, workerId: string) => {
      for (;;) {
        const batch = await mailbox.claim({ workerId, limit: 7, leaseMs: 60_000 });
        if (batch.length === 0 && claimed.length >= total) return;
        for (const dispatch of batch) {
          claimed.push(dispatch.dispatchId);
          await mailbox.ack({ dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken as string });
        }
      }
    };
    await Promise.all([worker(store, 'a'), worker(other, 'b')]);
    expect(claimed).toHaveLength(total);
    expect(new Set(claimed).size).toBe(total);
    expect((await store.countDispatches()).acked).toBe(total);
  });

  it('keeps what other shards gave when one shard fails, and throws only when nothing was taken', async () => {
    const store = open();
    const threads = threadsPerShard(1);
    for (const list of threads) await store.enqueue({ threadId: list[0] as string, runId: 'run' });
    const shards = await store.shards();
    const down = shards[1] as (typeof shards)[number];
    down.claim = () => Promise.reject(new AwakenError('store_failure', 'master down', { retryable: true }));
    const first = await store.claim({ workerId: 'w', limit: 3, leaseMs: 60_000 });
    expect(first.map((dispatch) => threadShard(dispatch.threadId, 3)).sort()).toEqual([0, 2]);
    // the two that were taken are held (not dropped): nothing left but shard 1's, which fails
    await expect(store.claim({ workerId: 'w', limit: 3, leaseMs: 60_000 })).rejects.toMatchObject({
      code: 'store_failure',
    });
  });

  it('rejects an unknown claimFrom', () => {
    expect(
      () => new ShardedRedisMailboxStore({ redis: client as never, claimFrom: 'random' as never }),
    ).toThrow(/claimFrom/);
  });
});

describe('claims over all shards (the default) with one shard failing', () => {
  it('keep serving the other shards and throw only when nothing was taken', async () => {
    const store = new ShardedRedisMailboxStore({
      redis: client as never,
      prefix: uniquePrefix('down'),
      shards: 3,
    });
    opened.push(store);
    const threads = threadsPerShard(2);
    for (const list of threads) for (const threadId of list) await store.enqueue({ threadId, runId: 'run' });
    const shards = await store.shards();
    const down = shards[1] as (typeof shards)[number];
    const failing = () =>
      Promise.reject(new AwakenError('store_failure', 'master down', { retryable: true }));
    const { peekClaimable, claim } = down;
    down.peekClaimable = failing;
    down.claim = failing;
    const taken = await store.claim({ workerId: 'w', limit: 6, leaseMs: 60_000 });
    expect(taken.map((dispatch) => threadShard(dispatch.threadId, 3)).sort()).toEqual([0, 0, 2, 2]);
    await expect(store.claim({ workerId: 'w', limit: 6, leaseMs: 60_000 })).rejects.toMatchObject({
      code: 'store_failure',
    });
    // back: shard 1's dispatches are there, the others' stay claimed by the first call
    down.peekClaimable = peekClaimable;
    down.claim = claim;
    const rest = await store.claim({ workerId: 'w', limit: 6, leaseMs: 60_000 });
    expect(rest.map((dispatch) => threadShard(dispatch.threadId, 3))).toEqual([1, 1]);
  });

  it('go on without a shard whose peek does not answer (a paused master) after the peek timeout', async () => {
    const store = new ShardedRedisMailboxStore({
      redis: client as never,
      prefix: uniquePrefix('hung'),
      shards: 3,
    });
    opened.push(store);
    const threads = threadsPerShard(1);
    for (const list of threads) for (const threadId of list) await store.enqueue({ threadId, runId: 'run' });
    const shards = await store.shards();
    const hung = shards[1] as (typeof shards)[number];
    const { peekClaimable } = hung;
    let claimsOnHung = 0;
    const { claim } = hung;
    hung.peekClaimable = () => new Promise(() => {}); // never answers
    hung.claim = (input) => {
      claimsOnHung += 1;
      return claim.call(hung, input);
    };
    const started = performance.now();
    const taken = await store.claim({ workerId: 'w', limit: 3, leaseMs: 60_000 });
    const elapsed = performance.now() - started;
    expect(taken.map((dispatch) => threadShard(dispatch.threadId, 3)).sort()).toEqual([0, 2]);
    // bounded by the peek timeout, not by the client's retries (seconds to tens of seconds)
    expect(elapsed).toBeGreaterThanOrEqual(SHARD_PEEK_TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(SHARD_PEEK_TIMEOUT_MS + 4_000);
    // a shard left out is not asked to take anything in that call
    expect(claimsOnHung).toBe(0);
    hung.peekClaimable = peekClaimable;
    const rest = await store.claim({ workerId: 'w', limit: 3, leaseMs: 60_000 });
    expect(rest.map((dispatch) => threadShard(dispatch.threadId, 3))).toEqual([1]);
  });
});
