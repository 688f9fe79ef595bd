import { answer, approve, defineTool, deny, toolPending } from '@awaken/contract';
import { type ScriptedTurn, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { approve as approveCall, createHarness, historyIsValid } from '../../../test-support/harness';

const oneCall = (args: unknown): ScriptedTurn[] => [
  { toolCalls: [{ id: 'a', name: 'danger', arguments: args }] },
  { text: 'ok' },
];

function setup(turns: ScriptedTurn[]) {
  const danger = recordingTool('danger');
  // approvalPlugin allows any replay: the payload convention must hold without the plugin reading it
  const model = createScriptedModel(turns);
  const harness = createHarness({ tools: [danger.tool], plugins: [approvalPlugin(['danger'])] }, { model });
  return { ...harness, model, danger };
}

describe('the approval payload {approved, reason?, editedArguments?} on a replayed ticket', () => {
  it('approved: false cancels the call for any plugin; the model reads the refusal', async () => {
    const { runtime, danger, model } = setup(oneCall({ path: '/x' }));
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const done = await runtime.resumeRun(first.runId, {
      decisions: [approveCall('a', { approved: false, reason: 'not today' })],
    }).result;
    expect(done).toMatchObject({ status: 'done', response: 'ok' });
    expect(danger.count()).toBe(0);
    const tool = model.requests[1]!.messages.find((message) => message.role === 'tool');
    expect(tool).toMatchObject({
      outcome: 'cancelled',
      content: { cancelled: true, reason: 'The user declined the call to "danger": not today' },
    });
  });

  it('deny() cancels without running, approve() runs', async () => {
    const denied = setup(oneCall({ path: '/x' }));
    const first = await denied.runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const ticket = first.waiting!.tickets[0]!;
    await denied.runtime.resumeRun(first.runId, { decisions: [deny(ticket, 'no')] }).result;
    expect(denied.danger.count()).toBe(0);

    const approved = setup(oneCall({ path: '/x' }));
    const waiting = await approved.runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const done = await approved.runtime.resumeRun(waiting.runId, {
      decisions: [approve(waiting.waiting!.tickets[0]!)],
    }).result;
    expect(done.status).toBe('done');
    expect(approved.danger.calls).toEqual([{ callId: 'a', args: { path: '/x' } }]);
    expect(historyIsValid(approved.model.requests[1]!.messages)).toBe(true);
  });

  it('editedArguments replace the model arguments for this and every later replay of the call', async () => {
    const runs: unknown[] = [];
    const twoStep = defineTool({
      name: 'danger',
      description: 'asks for a detail of its own after approval',
      parameters: z.object({ path: z.string() }),
      execute: (args, context) => {
        runs.push(args);
        if (context.resume?.result === 'detail') return { done: args.path };
        return toolPending({ id: `detail_${context.toolCallId}`, action: 'input', message: 'detail?' });
      },
    });
    const { runtime } = createHarness(
      { tools: [twoStep], plugins: [approvalPlugin(['danger'])] },
      { turns: oneCall({ path: '/etc/passwd' }) },
    );
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const edited = approve(first.waiting!.tickets[0]!, { editedArguments: { path: 'scratch/notes.txt' } });
    const second = await runtime.resumeRun(first.runId, { decisions: [edited] }).result;
    expect(second.status).toBe('waiting');
    const third = await runtime.resumeRun(first.runId, {
      decisions: [answer(second.waiting!.tickets[0]!, 'detail')],
    }).result;
    expect(third.status).toBe('done');
    expect(runs).toEqual([{ path: 'scratch/notes.txt' }, { path: 'scratch/notes.txt' }]);
  });

  it("edited arguments are checked against the tool's schema", async () => {
    const { runtime, danger, store } = setup(oneCall({ path: '/x' }));
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    // recordingTool accepts any object; a string is not one
    await runtime.resumeRun(first.runId, {
      decisions: [approve(first.waiting!.tickets[0]!, { editedArguments: 'not an object' })],
    }).result;
    expect(danger.count()).toBe(0);
    const tool = (await store.readMessages(first.threadId)).find((record) => record.message.role === 'tool');
    expect(tool?.message).toMatchObject({ outcome: 'failed' });
  });
});
