import type { MailboxStore, RunDispatch } from '@awaken/contract';
import { createMemoryMailboxStore } from '@awaken/store-memory';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { RedisMailboxStore } from '../../redis-mailbox-store';
import { deleteKeys, uniquePrefix } from '../../../test-support/redis-harness';

// Calls made on one store without awaiting each other take effect in call order, as on the memory
// store (and as commands sent on one connection do): batching enqueues and acks of a tick must not
// let a later call overtake them.

const proof = (dispatch: RunDispatch) => ({
  dispatchId: dispatch.dispatchId,
  claimToken: dispatch.claimToken ?? '',
});

const settle = async (calls: Promise<unknown>[]) =>
  (await Promise.allSettled(calls)).map((result) =>
    result.status === 'fulfilled' ? 'ok' : (result.reason as { code: string }).code,
  );

describe('calls made in one tick', () => {
  let redis: RedisMailboxStore;
  let memory: MailboxStore;

  beforeEach(async () => {
    redis = new RedisMailboxStore({ redis: inject('redisUrl'), prefix: uniquePrefix('order') });
    memory = createMemoryMailboxStore();
  });
  afterEach(async () => {
    await deleteKeys(redis.redis, redis.prefix);
    await redis.close();
  });

  const both = async (scenario: (store: MailboxStore) => Promise<unknown>) => [
    await scenario(memory),
    await scenario(redis),
  ];

  it('an ack then a nack of the same claim: the ack wins', async () => {
    const [onMemory, onRedis] = await both(async (store) => {
      await store.enqueue({ threadId: 't1', runId: 'r1', dispatchId: 'd1' });
      const [claimed] = await store.claim({ workerId: 'w', limit: 1, leaseMs: 60_000 });
      if (!claimed) throw new Error('not claimed');
      return settle([store.ack(proof(claimed)), store.nack({ ...proof(claimed), error: 'x' })]);
    });
    expect(onMemory).toEqual(['ok', 'stale_claim']);
    expect(onRedis).toEqual(onMemory);
  });

  it('an enqueue then a cancel of it: the cancel finds it', async () => {
    const [onMemory, onRedis] = await both((store) =>
      settle([store.enqueue({ threadId: 't1', runId: 'r1', dispatchId: 'd1' }), store.cancel('d1')]),
    );
    expect(onMemory).toEqual(['ok', 'ok']);
    expect(onRedis).toEqual(onMemory);
  });

  it('an enqueue then an interrupt of its thread: the interrupt supersedes it', async () => {
    const [onMemory, onRedis] = await both(async (store) => {
      const [, interrupt] = await Promise.all([
        store.enqueue({ threadId: 't1', runId: 'r1', dispatchId: 'd1' }),
        store.interrupt('t1'),
      ]);
      return [interrupt.supersededCount, (await store.loadDispatch('d1'))?.status];
    });
    expect(onMemory).toEqual([1, 'superseded']);
    expect(onRedis).toEqual(onMemory);
  });

  it('an ack that frees a dedupe key, then an enqueue with that key, after an earlier enqueue', async () => {
    const [onMemory, onRedis] = await both(async (store) => {
      await store.enqueue({ threadId: 't1', runId: 'r1', dispatchId: 'd1', dedupeKey: 'k' });
      const [claimed] = await store.claim({ workerId: 'w', limit: 1, leaseMs: 60_000 });
      if (!claimed) throw new Error('not claimed');
      return settle([
        store.enqueue({ threadId: 't2', runId: 'r2' }),
        store.ack(proof(claimed)),
        store.enqueue({ threadId: 't1', runId: 'r3', dedupeKey: 'k' }),
      ]);
    });
    expect(onMemory).toEqual(['ok', 'ok', 'ok']);
    expect(onRedis).toEqual(onMemory);
  });

  it('an ack then a claim: the claim finds the thread free', async () => {
    const [onMemory, onRedis] = await both(async (store) => {
      await store.enqueue({ threadId: 't1', runId: 'r1', dispatchId: 'd1' });
      await store.enqueue({ threadId: 't1', runId: 'r2', dispatchId: 'd2' });
      const [claimed] = await store.claim({ workerId: 'w', limit: 1, leaseMs: 60_000 });
      if (!claimed) throw new Error('not claimed');
      const [, next] = await Promise.all([
        store.ack(proof(claimed)),
        store.claim({ workerId: 'w', limit: 1, leaseMs: 60_000 }),
      ]);
      return next.map((dispatch) => dispatch.dispatchId);
    });
    expect(onMemory).toEqual(['d2']);
    expect(onRedis).toEqual(onMemory);
  });

  it('an enqueue then a read of it: the read finds it', async () => {
    const [onMemory, onRedis] = await both(async (store) => {
      const [, loaded, page] = await Promise.all([
        store.enqueue({ threadId: 't1', runId: 'r1', dispatchId: 'd1' }),
        store.loadDispatch('d1'),
        store.listDispatches('t1'),
      ]);
      return [loaded?.status, page.items.length];
    });
    expect(onMemory).toEqual(['queued', 1]);
    expect(onRedis).toEqual(onMemory);
  });
});
