import { decisionControl } from '@awaken/contract';
import { createMemoryRunControlInbox, createMemoryThreadRunStore } from '@awaken/store-memory';
import { createControllableTool, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { approve, historyIsValid } from '../../../test-support/harness';

describe('the run-control inbox', () => {
  it('adds injected user input at the next step boundary; the model answers it', async () => {
    const store = createMemoryThreadRunStore();
    const controlInbox = createMemoryRunControlInbox();
    const work = createControllableTool('work');
    const model = createScriptedModel((request) => {
      const last = request.messages.at(-1);
      if (last?.role === 'user' && last.content === 'go')
        return { toolCalls: [{ id: 'w', name: 'work', arguments: {} }] };
      return { text: `answered: ${last?.role === 'user' ? last.content : 'tool'}` };
    });
    const runtime = createAgentRuntime({
      agents: [{ id: 'agent', model, tools: [work.tool] }],
      stores: { threadRuns: store, inbox: controlInbox },
    });
    const handle = runtime.run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' });
    await work.started('w');
    const input = {
      kind: 'input' as const,
      id: 'i1',
      messages: [{ role: 'user' as const, content: 'also do X' }],
      at: 1,
    };
    expect(await controlInbox.put('r', input)).toBe('stored');
    expect(await controlInbox.put('r', input)).toBe('duplicate');
    work.release('w');
    expect(await handle.result).toMatchObject({ status: 'done', response: 'answered: also do X' });
    const messages = (await store.readMessages('t')).map((record) => record.message);
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'user',
      'assistant',
    ]);
    expect(historyIsValid(messages)).toBe(true);
    expect(await controlInbox.peek('r')).toEqual([]);
    expect((await store.getRun('r'))?.state.__runtime).toMatchObject({ controlIds: ['i1'] });
  });

  it('a cancel command aborts a running tool at once; a decision with a payload JSON cannot hold is refused', async () => {
    const store = createMemoryThreadRunStore();
    const controlInbox = createMemoryRunControlInbox();
    const danger = recordingTool('danger');
    const slow = createControllableTool('slow');
    const runtime = createAgentRuntime({
      agents: [
        {
          id: 'agent',
          model: createScriptedModel([
            { toolCalls: [{ id: 'a', name: 'danger', arguments: {} }] },
            { toolCalls: [{ id: 's', name: 'slow', arguments: {} }] },
          ]),
          tools: [danger.tool, slow.tool],
          plugins: [approvalPlugin(['danger'])],
        },
      ],
      stores: { threadRuns: store, inbox: controlInbox },
    });
    const waiting = await runtime.runToCompletion({ agentId: 'agent', runId: 'r', input: 'go' });
    // with an inbox, a BigInt payload is refused as invalid_payload, not a raw TypeError
    const bad = runtime.resumeRun('r', { decisions: [approve('a', { amount: 10n }, 'd_bad')] });
    expect(await bad.receipts).toMatchObject([{ status: 'rejected', reason: 'invalid_payload' }]);
    expect(await bad.result).toMatchObject({ status: 'waiting' });
    expect(await controlInbox.peek('r')).toEqual([]);
    expect(danger.count()).toBe(0);

    const resumed = runtime.resumeRun(waiting.runId, { decisions: [approve('a')] });
    await slow.started('s');
    await controlInbox.put('r', { kind: 'cancel', id: 'c1', reason: 'enough', at: 1 });
    expect(await resumed.result).toMatchObject({
      status: 'done',
      termination: { type: 'cancelled', reason: 'enough' },
    });
    expect(await controlInbox.peek('r')).toEqual([]);
    expect((await store.getRun('r'))?.state.__runtime).toMatchObject({ controlIds: ['c1'] });
    expect(await controlInbox.put('r', decisionControl(approve('a', {}, 'after')))).toBe('stored');
    expect(await runtime.resumeRun('r').result).toMatchObject({ termination: { type: 'cancelled' } });
    expect(danger.count()).toBe(1);
  });
});
