import { AwakenError } from '@awaken/contract';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { createHarness, historyIsValid, until } from '../../../test-support/harness';

function setup() {
  const danger = recordingTool('danger');
  const model = createScriptedModel((request) => {
    const last = request.messages.at(-1);
    if (last?.role === 'user' && last.content === 'delete it')
      return { toolCalls: [{ id: 'call_0', name: 'danger', arguments: { path: '/tmp/a' } }] };
    return { text: `answer to: ${last?.role === 'user' ? last.content : last?.role}` };
  });
  const harness = createHarness({ tools: [danger.tool], plugins: [approvalPlugin(['danger'])] }, { model });
  return { ...harness, model, danger };
}

describe('a new run on a thread whose run waits', () => {
  it('is refused with conflict naming the open run, and changes nothing', async () => {
    const { runtime, store, danger, model } = setup();
    const open = await runtime.runToCompletion({ agentId: 'agent', runId: 'open', input: 'delete it' });
    expect(open.status).toBe('waiting');
    const before = await store.messageCount(open.threadId);
    const refused = runtime.runToCompletion({
      agentId: 'agent',
      threadId: open.threadId,
      input: 'never mind',
    });
    await expect(refused).rejects.toSatisfy((error) => AwakenError.hasCode(error, 'conflict'));
    await expect(refused).rejects.toThrow(/open/);
    expect(await store.messageCount(open.threadId)).toBe(before);
    expect((await store.getRun('open'))?.status).toBe('waiting');
    expect(danger.count()).toBe(0);
    expect(model.callCount).toBe(1);
  });

  it("with onOpenRun: 'cancel' cancels the waiting calls, tells the model they were superseded, then runs", async () => {
    const { runtime, store, danger, model } = setup();
    const open = await runtime.runToCompletion({ agentId: 'agent', runId: 'open', input: 'delete it' });
    const next = await runtime.runToCompletion({
      agentId: 'agent',
      threadId: open.threadId,
      input: 'never mind',
      onOpenRun: 'cancel',
    });
    expect(next).toMatchObject({ status: 'done', response: 'answer to: never mind' });
    expect(await store.getRun('open')).toMatchObject({ status: 'done', termination: { type: 'cancelled' } });
    expect(danger.count()).toBe(0);
    const seen = model.requests.at(-1)!.messages;
    expect(seen.slice(-2)).toEqual([
      expect.objectContaining({
        role: 'tool',
        toolCallId: 'call_0',
        outcome: 'cancelled',
        content: { cancelled: true, reason: 'superseded by new input' },
      }),
      { role: 'user', content: 'never mind' },
    ]);
    expect(historyIsValid(seen)).toBe(true);
  });

  it("with onOpenRun: 'cancel' also supersedes a waiting run that is live in this runtime", async () => {
    const { runtime, store, danger } = setup();
    const live = runtime.run({ agentId: 'agent', runId: 'open', input: 'delete it', onSuspend: 'wait' });
    await until(async () => (await store.getRun('open'))?.status === 'waiting');
    const next = await runtime.runToCompletion({
      agentId: 'agent',
      threadId: live.threadId,
      input: 'never mind',
      onOpenRun: 'cancel',
    });
    expect(next).toMatchObject({ status: 'done', response: 'answer to: never mind' });
    expect(await live.result).toMatchObject({ status: 'done', termination: { type: 'cancelled' } });
    expect(danger.count()).toBe(0);
  });
});
