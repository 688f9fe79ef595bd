import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { MAILBOX_SCRIPTS } from '../../internal/lua/mailbox/mailbox-scripts';
import { RedisMailboxStore } from '../../redis-mailbox-store';
import { deleteKeys, uniquePrefix } from '../../../test-support/redis-harness';

// An enqueue call that runs twice — re-sent after a lost reply with request recording off
// (`requestTtlMs: 0`), or after its recorded reply expired — must not rewrite the dispatch it
// created: a generated id, like a chosen one, answers `conflict` the second time. Before, the
// second run set a claimed dispatch back to queued while its thread kept the claim: the worker's
// ack was stale, no reclaim freed the thread, and the thread never ran again.
describe('an enqueue script call run a second time', () => {
  let store: RedisMailboxStore;

  beforeEach(() => {
    store = new RedisMailboxStore({
      redis: inject('redisUrl'),
      prefix: uniquePrefix('rerun'),
      requestTtlMs: 0,
    });
  });
  afterEach(async () => {
    await deleteKeys(store.redis, store.prefix);
    await store.close();
  });

  it('leaves the dispatch it created (claimed since) alone and its thread usable', async () => {
    const generatedId = '0190a000-0000-7000-8000-000000000001';
    // The ARGV the store sends for enqueue({ threadId: 't', runId: 'r' }) with that generated id.
    const args = [generatedId, 't', 'r', 128, '', '', 3, ''];
    const context = { redis: store.redis, prefix: store.prefix, keys: [], requestTtlMs: 0 };
    await MAILBOX_SCRIPTS.enqueue.call(context, args);
    const [claimed] = await store.claim({ workerId: 'w', limit: 1, leaseMs: 60_000 });
    expect(claimed?.dispatchId).toBe(generatedId);
    const again = (await MAILBOX_SCRIPTS.enqueue.call(context, args)) as string[];
    expect(again[1]).toMatch(/^AWAKEN conflict /);
    expect(await store.loadDispatch(generatedId)).toEqual(claimed);
    const acked = await store.ack({ dispatchId: generatedId, claimToken: claimed?.claimToken ?? '' });
    expect(acked.status).toBe('acked');
    await store.enqueue({ threadId: 't', runId: 'r2', dispatchId: 'next' });
    expect((await store.claim({ workerId: 'w', limit: 1, leaseMs: 60_000 }))[0]?.dispatchId).toBe('next');
  });
});
