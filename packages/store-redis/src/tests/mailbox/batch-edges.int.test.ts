import type { RunDispatch } from '@awaken/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { MUTATING_SCRIPT_SHAS } from '../../internal/lua/idempotent-script';
import { RedisMailboxStore } from '../../redis-mailbox-store';
import { advanceClock, deleteKeys, freezeClock, uniquePrefix } from '../../../test-support/redis-harness';
import { type ReplyDroppingProxy, startReplyDroppingProxy } from '../../../test-support/reply-dropping-proxy';
import { scriptSha } from '../../../test-support/script-sha';

// Edges of the batched enqueue / ack calls: more calls in one tick than one script call takes, a
// lost reply of one of several calls of a tick, and what the mailbox leaves behind.

const proof = (dispatch: RunDispatch) => ({
  dispatchId: dispatch.dispatchId,
  claimToken: dispatch.claimToken ?? '',
});

describe('batch edges', () => {
  let proxy: ReplyDroppingProxy;
  let direct: RedisMailboxStore;
  let proxied: RedisMailboxStore;

  beforeAll(async () => {
    proxy = await startReplyDroppingProxy(inject('redisUrl'));
  });
  afterAll(async () => {
    await proxy.close();
  });
  beforeEach(() => {
    const prefix = uniquePrefix('edges');
    direct = new RedisMailboxStore({ redis: inject('redisUrl'), prefix, testClock: true });
    proxied = new RedisMailboxStore({ redis: proxy.url, prefix, testClock: true });
  });
  afterEach(async () => {
    proxy.disarm();
    await deleteKeys(direct.redis, direct.prefix);
    await Promise.all([direct.close(), proxied.close()]);
  });

  it('keeps enqueue order across the script calls of one tick (150 enqueues of one thread)', async () => {
    const ids = Array.from({ length: 150 }, (_, index) => `d${index}`);
    await Promise.all(ids.map((dispatchId) => direct.enqueue({ threadId: 't', runId: 'r', dispatchId })));
    const claimedInOrder: string[] = [];
    for (;;) {
      const [next] = await direct.claim({ workerId: 'w', limit: 5, leaseMs: 60_000 });
      if (!next) break;
      claimedInOrder.push(next.dispatchId);
      await direct.ack(proof(next));
    }
    expect(claimedInOrder).toEqual(ids);
  });

  it('answers each of 130 acks of one tick once when the reply of one of their script calls is lost', async () => {
    const threads = Array.from({ length: 130 }, (_, index) => `t${index}`);
    await Promise.all(threads.map((threadId) => direct.enqueue({ threadId, runId: threadId })));
    const claimed = await direct.claim({ workerId: 'w', limit: 130, leaseMs: 60_000 });
    expect(claimed).toHaveLength(130);
    const sha = MUTATING_SCRIPT_SHAS.get('mailbox.ack');
    // The second of the three script calls (64 + 64 + 2 acks) loses its reply.
    let seen = 0;
    const dropped = proxy.dropNextReply((words) => scriptSha(words) === sha && ++seen === 2);
    const acked = await Promise.all(claimed.map((dispatch) => proxied.ack(proof(dispatch))));
    await dropped;
    expect(acked.map((dispatch) => dispatch.status)).toEqual(claimed.map(() => 'acked'));
    for (const dispatch of acked) expect(await direct.loadDispatch(dispatch.dispatchId)).toEqual(dispatch);
  });

  it('acks the same claim twice, nacks it and cancels it in one tick: one ack wins, nothing else writes', async () => {
    await direct.enqueue({ threadId: 't', runId: 'r', dispatchId: 'd1' });
    await direct.enqueue({ threadId: 't', runId: 'r', dispatchId: 'd2' });
    const [claimed] = await direct.claim({ workerId: 'w', limit: 1, leaseMs: 60_000 });
    if (!claimed) throw new Error('not claimed');
    const results = await Promise.allSettled([
      direct.ack(proof(claimed)),
      direct.ack(proof(claimed)),
      direct.nack({ ...proof(claimed), error: 'x' }),
      direct.cancel('d1'),
      direct.ack({ dispatchId: 'unknown', claimToken: 'x' }),
    ]);
    expect(results.map((result) => (result.status === 'fulfilled' ? 'ok' : result.reason.code))).toEqual([
      'ok',
      'stale_claim',
      'stale_claim',
      'conflict',
      'not_found',
    ]);
    const [next] = await direct.claim({ workerId: 'w', limit: 1, leaseMs: 60_000 });
    expect(next?.dispatchId).toBe('d2');
  });

  it('leaves no claim, queue or dedupe entry behind once every dispatch ended and was purged', async () => {
    await freezeClock(direct);
    const keysBefore = new Set(await direct.redis.keys(`${direct.prefix}*`));
    // One of each ending: acked, nacked to dead letter, dead-lettered, reclaimed to dead letter,
    // cancelled, superseded (queued and claimed), each with a dedupe key and a future sibling.
    const enqueue = (threadId: string, dispatchId: string, extra: object = {}) =>
      direct.enqueue({ threadId, runId: 'r', dispatchId, dedupeKey: dispatchId, maxAttempts: 1, ...extra });
    for (const thread of ['ack', 'nack', 'dead', 'reclaim', 'cancel', 'interrupt']) {
      await enqueue(thread, `${thread}-1`);
      await enqueue(thread, `${thread}-later`, { availableAt: 1 });
      await enqueue(thread, `${thread}-future`, { availableAt: Number.MAX_SAFE_INTEGER - 1 });
    }
    const claimed = await direct.claim({ workerId: 'w', limit: 10, leaseMs: 1_000 });
    const byThread = new Map(claimed.map((dispatch) => [dispatch.threadId, dispatch]));
    const get = (thread: string) => byThread.get(thread) as RunDispatch;
    await direct.ack(proof(get('ack')));
    await direct.nack({ ...proof(get('nack')), error: 'x' });
    await direct.deadLetter({ ...proof(get('dead')), error: 'x' });
    await direct.interrupt('interrupt');
    await direct.supersedeClaimed('interrupt-1');
    await direct.cancel('cancel-later');
    await direct.cancel('cancel-future');
    await advanceClock(direct, 2_000);
    // The claims of `reclaim` and `cancel` were never settled: their leases ran out.
    const reclaimed = await direct.reclaimExpiredLeases();
    expect(reclaimed.map((dispatch) => `${dispatch.dispatchId} ${dispatch.status}`).sort()).toEqual([
      'cancel-1 dead_letter',
      'reclaim-1 dead_letter',
    ]);
    // What is left queued: drain it (claim, ack), cancel the future ones.
    for (;;) {
      const batch = await direct.claim({ workerId: 'w', limit: 10, leaseMs: 1_000 });
      if (batch.length === 0) break;
      await Promise.all(batch.map((dispatch) => direct.ack(proof(dispatch))));
    }
    for (const thread of ['ack', 'nack', 'dead', 'reclaim']) await direct.cancel(`${thread}-future`);
    await advanceClock(direct, 1);
    await direct.purgeTerminal({ olderThan: (await direct.now()) + 1 });
    const left = (await direct.redis.keys(`${direct.prefix}*`))
      .filter((key) => !keysBefore.has(key) && !key.startsWith(`${direct.prefix}rq:`))
      .map((key) => key.slice(direct.prefix.length))
      .sort();
    // The enqueue counter and the interrupted thread's epoch stay (an epoch must never go back).
    expect(left).toEqual(['seq', 'tstate']);
    // in the thread-state hash: that epoch only, no claim marker of any thread
    expect(await direct.redis.hkeys(`${direct.prefix}tstate`)).toEqual(['e:interrupt']);
  });

  it('keeps the reply of every batched call for the request TTL only', async () => {
    const store = new RedisMailboxStore({
      redis: inject('redisUrl'),
      prefix: direct.prefix,
      requestTtlMs: 5_000,
    });
    try {
      await Promise.all([
        store.enqueue({ threadId: 't', runId: 'r' }),
        store.enqueue({ threadId: 't', runId: 'r' }),
      ]);
      const records = await store.redis.keys(`${store.prefix}rq:*`);
      expect(records).toHaveLength(1);
      const ttl = await store.redis.pttl(records[0] as string);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(5_000);
    } finally {
      await store.close();
    }
  });

  it('wakes one waiter per dispatch of a batched enqueue call, and every waiter when freed by batched acks', async () => {
    const waiters = (count: number) =>
      Array.from({ length: count }, () => direct.waitForWork({ timeoutMs: 20_000 }));
    const first = waiters(10);
    // Wait until all ten connections block, so no marker is taken before they wait.
    await vi.waitFor(async () => {
      const clients = String(await direct.redis.client('LIST'));
      expect(clients.split('cmd=blpop').length - 1).toBeGreaterThanOrEqual(10);
    });
    const enqueued = await Promise.all(
      Array.from({ length: 10 }, (_, index) => direct.enqueue({ threadId: `t${index}`, runId: 'r' })),
    );
    expect(await Promise.all(first)).toEqual(first.map(() => true));
    // A second dispatch per thread, readied only by the batched acks that free the threads.
    await Promise.all(
      enqueued.map((dispatch) => direct.enqueue({ threadId: dispatch.threadId, runId: 'r2' })),
    );
    const claimed = await direct.claim({ workerId: 'w', limit: 20, leaseMs: 60_000 });
    expect(claimed).toHaveLength(10);
    const second = waiters(10);
    await vi.waitFor(async () => {
      const clients = String(await direct.redis.client('LIST'));
      expect(clients.split('cmd=blpop').length - 1).toBeGreaterThanOrEqual(10);
    });
    await Promise.all(claimed.map((dispatch) => direct.ack(proof(dispatch))));
    expect(await Promise.all(second)).toEqual(second.map(() => true));
  });
});
