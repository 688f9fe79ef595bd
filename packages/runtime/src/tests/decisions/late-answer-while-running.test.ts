import { describe, expect, it } from 'vitest';
import { approve } from '../../../test-support/harness';
import { createSharedStores } from '../../../test-support/shared-stores';

/**
 * The promise is "a decision is `accepted` only if it will be applied". Once a call's approval was
 * applied and the tool executes, the run is stored `running`. A different answer for that call,
 * delivered from another process, must not be `accepted`: the call is no longer suspended.
 */
describe('a late different answer for a call whose approval was applied (run executing elsewhere)', () => {
  it('runtime.decide from another runtime does not answer accepted', async () => {
    const s = createSharedStores();
    const a = s.runtime();
    const b = s.runtime();
    const live = a.run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' });
    await expect.poll(async () => (await s.store.getRun('r'))?.status).toBe('waiting');
    expect((await live.decide(approve('a', { approved: true }, 'yes')))[0]).toMatchObject({
      status: 'accepted',
    });
    await s.danger.started('a');
    await expect.poll(async () => (await s.store.getRun('r'))?.status).toBe('running');
    const late = await b.decide('r', [approve('a', { approved: false }, 'no')]);
    s.danger.release('a', { ok: 1 });
    await live.result;
    expect(s.danger.executions('a')).toBe(1);
    expect(late.receipts[0]?.status).not.toBe('accepted');
    expect(late.receipts[0]).toMatchObject({ status: 'rejected' });
  });
});
