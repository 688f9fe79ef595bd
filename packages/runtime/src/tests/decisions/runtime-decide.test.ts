import { describe, expect, it } from 'vitest';
import { approve } from '../../../test-support/harness';
import { createSharedStores } from '../../../test-support/shared-stores';

/** Each runtime stands for a process; they share memory stores as processes share Redis. */
describe('runtime.decide delivers decisions wherever the run is', () => {
  it('reaches a run live in another process through its inbox (queued), which applies it', async () => {
    const s = createSharedStores();
    const a = s.runtime();
    const b = s.runtime();
    const live = a.run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' });
    await expect.poll(async () => (await s.store.getRun('r'))?.status).toBe('waiting');
    const delivered = await b.decide('r', approve('a'));
    expect(delivered).toMatchObject({ runId: 'r', delivery: 'queued' });
    expect(delivered.receipts).toEqual([expect.objectContaining({ toolCallId: 'a', status: 'accepted' })]);
    await s.danger.started('a');
    s.danger.release('a', { ok: 1 });
    expect(await live.result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    expect(s.danger.executions('a')).toBe(1);
    expect(await s.inbox.peek('r')).toEqual([]);
    // the same decision again: it was applied (a duplicate); another one comes too late
    expect(await b.decide('r', [approve('a'), approve('a', { approved: false }, 'late')])).toMatchObject({
      delivery: 'finished',
      receipts: [
        expect.objectContaining({ status: 'duplicate' }),
        expect.objectContaining({ status: 'rejected', reason: 'run_finished' }),
      ],
    });
  });

  it('rejects a stale decision for a run held elsewhere at once, writing nothing', async () => {
    const s = createSharedStores();
    const live = s
      .runtime()
      .run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' });
    await expect.poll(async () => (await s.store.getRun('r'))?.status).toBe('waiting');
    const other = s.runtime();
    const delivered = await other.decide('r', [approve('nope'), null as never]);
    expect(delivered.receipts).toEqual([
      expect.objectContaining({ status: 'rejected', reason: 'unknown_tool_call' }),
      expect.objectContaining({ status: 'rejected', reason: 'invalid_payload' }),
    ]);
    expect(await s.inbox.peek('r')).toEqual([]);
    live.cancel();
    await live.result;
  });

  it('resumes a waiting run nobody holds, here, and hands back its activation', async () => {
    const s = createSharedStores();
    const waiting = await s
      .runtime()
      .runToCompletion({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' });
    expect(waiting.status).toBe('waiting');
    const delivered = await s.runtime().decide('r', [approve('a')]);
    expect(delivered).toMatchObject({
      delivery: 'resumed',
      receipts: [expect.objectContaining({ status: 'accepted' })],
    });
    await s.danger.started('a');
    s.danger.release('a', { ok: 1 });
    expect(await delivered.handle?.result).toMatchObject({ status: 'done' });
  });

  it('hands decisions to a run live in this runtime', async () => {
    const s = createSharedStores();
    const runtime = s.runtime();
    const live = runtime.run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' });
    await expect.poll(async () => (await s.store.getRun('r'))?.status).toBe('waiting');
    expect(await runtime.decide('r', approve('a'))).toMatchObject({
      delivery: 'live',
      receipts: [expect.objectContaining({ status: 'accepted' })],
    });
    s.danger.release('a', { ok: 1 });
    expect(await live.result).toMatchObject({ status: 'done' });
  });

  it('without an inbox, a run held elsewhere is run_busy and an unknown run not_found', async () => {
    const s = createSharedStores();
    const live = s
      .runtime()
      .run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' });
    await expect.poll(async () => (await s.store.getRun('r'))?.status).toBe('waiting');
    const lonely = s.runtime({ stores: { inbox: undefined } });
    await expect(lonely.decide('r', approve('a'))).rejects.toMatchObject({ code: 'run_busy' });
    await expect(lonely.decide('missing', approve('a'))).rejects.toMatchObject({ code: 'not_found' });
    await expect(lonely.decide('', approve('a'))).rejects.toMatchObject({ code: 'validation_failed' });
    expect(s.danger.executions('a')).toBe(0);
    live.cancel();
    await live.result;
  });
});
