import { describe, expect, it } from 'vitest';
import { queueDecisions } from '../../index';
import { approve } from '../../../test-support/harness';
import { createSharedStores } from '../../../test-support/shared-stores';

/**
 * A caller that read the run before a decision was applied (and taken out of the inbox, which then
 * accepts the same id again) must not be told `accepted` a second time.
 */
describe('queueDecisions against a copy of the run read before the decision was applied', () => {
  it('answers duplicate, not accepted, and leaves nothing in the inbox', async () => {
    const s = createSharedStores();
    const live = s
      .runtime()
      .run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' });
    await expect.poll(async () => (await s.store.getRun('r'))?.status).toBe('waiting');
    const stale = await s.store.getRun('r');
    if (!stale) throw new Error('no run');
    const stores = { store: s.store, inbox: s.inbox };
    const first = await queueDecisions(stores, stale, [approve('a')]);
    expect(first).toEqual([expect.objectContaining({ status: 'accepted' })]);
    await s.danger.started('a');
    s.danger.release('a', { ok: 1 });
    await live.result;
    expect(await s.inbox.peek('r')).toEqual([]);

    // the same decision, judged on the copy from before the apply: the run applied it already
    const again = await queueDecisions(stores, stale, [approve('a')]);
    expect(again).toEqual([expect.objectContaining({ status: 'duplicate' })]);
    expect(await s.inbox.peek('r')).toEqual([]);
  });

  it('answers duplicate for a decision this process got accepted, even when every read it makes is stale', async () => {
    const s = createSharedStores();
    const live = s
      .runtime()
      .run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' });
    await expect.poll(async () => (await s.store.getRun('r'))?.status).toBe('waiting');
    const stale = await s.store.getRun('r');
    if (!stale) throw new Error('no run');
    // a replica that lags: every read returns the run as it was before the decision
    const stores = { store: { getRun: async () => stale }, inbox: s.inbox };
    expect(await queueDecisions(stores, stale, [approve('a')])).toEqual([
      expect.objectContaining({ status: 'accepted' }),
    ]);
    await s.danger.started('a');
    s.danger.release('a', { ok: 1 });
    await live.result;
    expect(await queueDecisions(stores, stale, [approve('a')])).toEqual([
      expect.objectContaining({ status: 'duplicate' }),
    ]);
    expect(await s.inbox.peek('r')).toEqual([]);
  });
});
