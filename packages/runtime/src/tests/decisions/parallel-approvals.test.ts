import { describe, expect, it } from 'vitest';
import { approve, collect, historyIsValid, reject, until } from '../../../test-support/harness';
import { createTestStore } from '../../../test-support/recording-store';
import {
  requestMessages,
  twoApprovalsHarness as setup,
  twoDangerCalls,
} from '../../../test-support/two-approvals';

/** Approvals of parallel calls, each resolving its own call (the failures users hit in other runtimes). */
describe('approvals of parallel tool calls', () => {
  it('approve A and reject B in one round: A runs, B is cancelled, every call answered once, the run continues', async () => {
    const { runtime, danger, model, store } = setup();
    const handle = runtime.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
    const events = collect(handle);
    await until(async () => (await store.getRun(handle.runId))?.status === 'waiting');
    await handle.decide([approve('a'), reject('b', 'not this one')]);
    expect(await handle.result).toMatchObject({ status: 'done', response: 'continued' });
    await events;
    expect(danger.count('a')).toBe(1);
    expect(danger.count('b')).toBe(0);
    const next = requestMessages(model, 1);
    expect(historyIsValid(next)).toBe(true);
    expect(next.filter((message) => message.role === 'tool')).toHaveLength(2);
  });

  it('partial resume: one decision resolves one call and the run keeps waiting for the rest', async () => {
    const { runtime, danger } = setup();
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const partial = await runtime.resumeRun(first.runId, { decisions: [approve('b')] }).result;
    expect(partial).toMatchObject({ status: 'waiting', waiting: { ticketIds: ['ticket_1:a'] } });
    expect(danger.count('b')).toBe(1);
    expect((await runtime.resumeRun(first.runId, { decisions: [approve('a')] }).result).status).toBe('done');
  });

  it('two suspended calls of the same tool with different arguments: each decision reaches its own call', async () => {
    const { runtime, danger } = setup({
      turns: [twoDangerCalls([{ path: '/one' }, { path: '/two' }]), { text: 'ok' }],
    });
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    await runtime.resumeRun(first.runId, { decisions: [approve('b')] }).result;
    await runtime.resumeRun(first.runId, { decisions: [approve('a')] }).result;
    expect(danger.calls).toEqual([
      { callId: 'b', args: { path: '/two' } },
      { callId: 'a', args: { path: '/one' } },
    ]);
  });

  it('a decision naming a call that is no longer suspended is rejected, never redirected', async () => {
    const { runtime, danger } = setup();
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    await runtime.resumeRun(first.runId, { decisions: [approve('a')] }).result;
    const stale = runtime.resumeRun(first.runId, { decisions: [approve('a', {}, 'stale')] });
    expect(await stale.receipts).toMatchObject([{ status: 'rejected', reason: 'not_suspended' }]);
    expect(await stale.result).toMatchObject({ status: 'waiting', waiting: { ticketIds: ['ticket_1:b'] } });
    expect(danger.count('b')).toBe(0);
  });

  it('a rejected call never runs, on hot and cold paths', async () => {
    const hot = setup();
    const handle = hot.runtime.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
    await until(async () => (await hot.store.getRun(handle.runId))?.status === 'waiting');
    await handle.decide([reject('a'), reject('b')]);
    await handle.result;
    expect(hot.danger.count()).toBe(0);

    const store = createTestStore();
    const cold = setup({ store });
    const first = await cold.runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const fresh = setup({ store, turns: [{ text: 'after rejections' }] });
    const done = await fresh.runtime.resumeRun(first.runId, { decisions: [reject('a'), reject('b')] }).result;
    expect(done.status).toBe('done');
    expect(cold.danger.count() + fresh.danger.count()).toBe(0);
  });

  it('two parallel suspensions resumed in either order, each in a separate request, on restarted processes', async () => {
    for (const order of [
      ['a', 'b'],
      ['b', 'a'],
    ]) {
      const store = createTestStore();
      const first = setup({ store });
      const waiting = await first.runtime.runToCompletion({ agentId: 'agent', input: 'go' });
      const second = setup({ store, turns: [] });
      const mid = await second.runtime.resumeRun(waiting.runId, { decisions: [approve(order[0] as string)] })
        .result;
      expect(mid.status).toBe('waiting');
      const third = setup({ store, turns: [{ text: 'both done' }] });
      const end = await third.runtime.resumeRun(waiting.runId, { decisions: [approve(order[1] as string)] })
        .result;
      expect(end).toMatchObject({ status: 'done', response: 'both done' });
      expect(first.danger.count() + second.danger.count() + third.danger.count()).toBe(2);
    }
  });

  it('after resume the model sees the original call and its result and is not asked to approve again', async () => {
    const { runtime, model } = setup({ turns: [twoDangerCalls(), { text: 'ok' }] });
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const done = await runtime.resumeRun(first.runId, { decisions: [approve('a'), approve('b')] }).result;
    expect(done.status).toBe('done');
    const messages = requestMessages(model, 1);
    expect(messages[1]).toMatchObject({ role: 'assistant', toolCalls: [{ id: 'a' }, { id: 'b' }] });
    expect(messages.slice(2).map((message) => message.role === 'tool' && message.toolCallId)).toEqual([
      'a',
      'b',
    ]);
    expect(done.waiting).toBeUndefined();
  });
});
