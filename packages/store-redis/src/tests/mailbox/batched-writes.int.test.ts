import type { RunDispatch } from '@awaken/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { MUTATING_SCRIPT_SHAS } from '../../internal/lua/idempotent-script';
import { RedisMailboxStore } from '../../redis-mailbox-store';
import { deleteKeys, uniquePrefix } from '../../../test-support/redis-harness';
import { type ReplyDroppingProxy, startReplyDroppingProxy } from '../../../test-support/reply-dropping-proxy';
import { scriptSha } from '../../../test-support/script-sha';

// Enqueues and acks made in the same tick travel as one script call; each keeps its own checks and
// its own answer, and a lost reply of the whole call answers each of them as the first time.

const proof = (dispatch: RunDispatch) => ({
  dispatchId: dispatch.dispatchId,
  claimToken: dispatch.claimToken ?? '',
});

describe('enqueues and acks of one tick', () => {
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
    const prefix = uniquePrefix('batched');
    direct = new RedisMailboxStore({ redis: inject('redisUrl'), prefix });
    proxied = new RedisMailboxStore({ redis: proxy.url, prefix });
  });
  afterEach(async () => {
    proxy.disarm();
    await deleteKeys(direct.redis, direct.prefix);
    await Promise.all([direct.close(), proxied.close()]);
  });

  /** The words of the next script call of `name` whose reply the proxy drops. */
  const dropNext = (name: string) => {
    const sha = MUTATING_SCRIPT_SHAS.get(name);
    return proxy.dropNextReply((words) => scriptSha(words) === sha);
  };

  it('rejects only the enqueues that break a rule, in call order', async () => {
    const results = await Promise.allSettled([
      direct.enqueue({ threadId: 't1', runId: 'r1', dedupeKey: 'k' }),
      direct.enqueue({ threadId: 't1', runId: 'r2', dedupeKey: 'k' }),
      direct.enqueue({ threadId: 't1', runId: 'r3', dispatchId: 'd-given' }),
      direct.enqueue({ threadId: 't2', runId: 'r4', dispatchId: 'd-given' }),
      direct.enqueue({ threadId: '', runId: 'r5' }),
      direct.enqueue({ threadId: 't2', runId: 'r6', dedupeKey: 'k' }),
    ]);
    expect(results.map((result) => (result.status === 'fulfilled' ? 'ok' : result.reason.code))).toEqual([
      'ok',
      'dedupe_conflict',
      'ok',
      'conflict',
      'validation_failed',
      'ok',
    ]);
    const stored = [
      ...(await direct.listDispatches('t1')).items,
      ...(await direct.listDispatches('t2')).items,
    ];
    expect(stored.map((dispatch) => dispatch.runId).sort()).toEqual(['r1', 'r3', 'r6']);
    for (const result of results) {
      if (result.status === 'fulfilled')
        expect(await direct.loadDispatch(result.value.dispatchId)).toEqual(result.value);
    }
  });

  it('rejects only the acks whose claim is stale', async () => {
    for (const thread of ['t1', 't2', 't3']) await direct.enqueue({ threadId: thread, runId: thread });
    const [a, b, c] = await direct.claim({ workerId: 'w1', limit: 3, leaseMs: 60_000 });
    if (!a || !b || !c) throw new Error('not claimed');
    const results = await Promise.allSettled([
      direct.ack(proof(a)),
      direct.ack({ ...proof(b), claimToken: 'not-the-token' }),
      direct.ack(proof(c)),
      direct.ack(proof(a)),
    ]);
    expect(
      results.map((result) => (result.status === 'fulfilled' ? result.value.status : result.reason.code)),
    ).toEqual(['acked', 'stale_claim', 'acked', 'stale_claim']);
    expect(await direct.loadDispatch(b.dispatchId)).toEqual(b);
  });

  it('answers each enqueue of a call whose reply was lost with its dispatch, stored once', async () => {
    const dropped = dropNext('mailbox.enqueue');
    const [first, second] = await Promise.all([
      proxied.enqueue({ threadId: 't1', runId: 'r1', dispatchId: 'd1' }),
      proxied.enqueue({ threadId: 't1', runId: 'r2', dispatchId: 'd2' }),
    ]);
    expect((await dropped).filter((word) => word === 'd1' || word === 'd2')).toEqual(['d1', 'd2']);
    expect(await direct.loadDispatch('d1')).toEqual(first);
    expect(await direct.loadDispatch('d2')).toEqual(second);
    expect((await direct.listDispatches('t1')).items).toHaveLength(2);
  });

  it('answers each ack of a call whose reply was lost with acked, not stale_claim', async () => {
    for (const thread of ['t1', 't2']) await direct.enqueue({ threadId: thread, runId: thread });
    const claimed = await direct.claim({ workerId: 'w1', limit: 2, leaseMs: 60_000 });
    const dropped = dropNext('mailbox.ack');
    const acked = await Promise.all(claimed.map((dispatch) => proxied.ack(proof(dispatch))));
    const words = await dropped;
    expect(claimed.every((dispatch) => words.includes(dispatch.dispatchId))).toBe(true);
    expect(acked.map((dispatch) => dispatch.status)).toEqual(['acked', 'acked']);
    for (const dispatch of acked) expect(await direct.loadDispatch(dispatch.dispatchId)).toEqual(dispatch);
  });
});
