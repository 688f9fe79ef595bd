import { describe, expect, it } from 'vitest';
import { approve, reject } from '../../../test-support/harness';
import { createSharedStores } from '../../../test-support/shared-stores';

/**
 * A client whose reply was lost sends its decision again. Once the run applied it (the checkpointed
 * applied decision ids say so), every path answers `duplicate` — never `accepted` (it will not be
 * applied again) and never a rejection (it was applied). A different decision for a decided call
 * stays a rejection.
 */
describe('a decision re-sent after the run applied it is a duplicate on every path', () => {
  async function finished() {
    const s = createSharedStores();
    const runtime = s.runtime();
    await runtime.runToCompletion({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' });
    const resumed = runtime.resumeRun('r', { decisions: [approve('a')] });
    expect(await resumed.receipts).toEqual([expect.objectContaining({ status: 'accepted' })]);
    await s.danger.started('a');
    s.danger.release('a', { ok: 1 });
    expect(await resumed.result).toMatchObject({ status: 'done' });
    return { s, runtime, resumed };
  }

  it('handle.decide on the finished run', async () => {
    const { resumed } = await finished();
    expect(await resumed.decide(approve('a'))).toEqual([
      { toolCallId: 'a', decisionId: 'd_a', status: 'duplicate' },
    ]);
  });

  it('resumeRun with it, once the run is finished', async () => {
    const { runtime } = await finished();
    const again = runtime.resumeRun('r', { decisions: [approve('a'), reject('a', 'no', 'other')] });
    expect(await again.receipts).toEqual([
      { toolCallId: 'a', decisionId: 'd_a', status: 'duplicate' },
      expect.objectContaining({ decisionId: 'other', status: 'rejected', reason: 'run_finished' }),
    ]);
  });

  it('runtime.decide, once the run is finished', async () => {
    const { s } = await finished();
    const delivered = await s.runtime().decide('r', [approve('a'), reject('a', 'no', 'other')]);
    expect(delivered.receipts).toEqual([
      { toolCallId: 'a', decisionId: 'd_a', status: 'duplicate' },
      expect.objectContaining({ decisionId: 'other', status: 'rejected', reason: 'run_finished' }),
    ]);
  });

  it('runtime.decide while another process runs the resumed call', async () => {
    const s = createSharedStores();
    const owner = s.runtime();
    await owner.runToCompletion({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' });
    const resumed = owner.resumeRun('r', { decisions: [approve('a')] });
    await s.danger.started('a');
    // the gate checkpointed the applied id and emptied the inbox
    await expect.poll(async () => (await s.inbox.peek('r')).length).toBe(0);
    const delivered = await s.runtime().decide('r', approve('a'));
    expect(delivered).toMatchObject({ delivery: 'queued' });
    expect(delivered.receipts).toEqual([{ toolCallId: 'a', decisionId: 'd_a', status: 'duplicate' }]);
    expect(await s.inbox.peek('r')).toEqual([]);
    s.danger.release('a', { ok: 1 });
    expect(await resumed.result).toMatchObject({ status: 'done' });
    expect(s.danger.executions('a')).toBe(1);
  });
});
