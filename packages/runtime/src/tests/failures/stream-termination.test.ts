import type { AgentEvent } from '@awaken/contract';
import { type ScriptedTurn, createScriptedModel, echoTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { approve, collect, createHarness, historyIsValid, until } from '../../../test-support/harness';
import { twoApprovalsHarness as setup, twoDangerCalls } from '../../../test-support/two-approvals';

describe('the event stream of a run', () => {
  it('ends promptly with run_finish(suspended) when a call suspends', async () => {
    const { runtime } = setup({ parallel: false, turns: [twoDangerCalls()] });
    const events = await collect(runtime.run({ agentId: 'agent', input: 'go' }));
    expect(events.at(-1)).toMatchObject({
      type: 'run_finish',
      status: 'waiting',
      termination: { type: 'suspended' },
    });
  });

  it('ends whether or not optional hooks and callbacks are set', async () => {
    const danger = recordingTool('danger');
    const { runtime } = createHarness(
      {
        tools: [danger.tool],
        plugins: [
          approvalPlugin(['danger']),
          { id: 'noisy', hooks: { runEnd: async () => {}, afterToolExecute: async () => {} } },
        ],
      },
      { turns: [twoDangerCalls()], onStateChange: () => {} },
    );
    const events = await collect(runtime.run({ agentId: 'agent', input: 'go' }));
    expect(events.at(-1)?.type).toBe('run_finish');
  });

  it('a reader that stops reading leaves the run running; an explicit cancel ends it cancelled', async () => {
    const { runtime, store } = createHarness(
      { tools: [echoTool] },
      {
        turns: [
          { toolCalls: [{ id: 'e', name: 'echo', arguments: { text: 'x' } }], delayMs: 5 },
          { text: 'kept going', delayMs: 5 },
        ],
      },
    );
    const handle = runtime.run({ agentId: 'agent', input: 'go' });
    for await (const event of handle) if (event.type === 'step_start') break;
    expect(await handle.result).toMatchObject({ status: 'done', response: 'kept going' });
    const second = runtime.run({ agentId: 'agent', input: 'again', threadId: handle.threadId });
    second.cancel('user pressed stop');
    expect(await second.result).toMatchObject({
      termination: { type: 'cancelled', reason: 'user pressed stop' },
    });
    expect((await store.getRun(second.runId))?.status).toBe('done');
  });

  it('a 1 MB streamed answer arrives whole, assembled once from its deltas', async () => {
    const big = 'x'.repeat(1024 * 1024);
    const { runtime } = createHarness({}, { turns: [{ text: big, chunkSize: 4096 }] });
    const handle = runtime.run({ agentId: 'agent', input: 'go' });
    const events: AgentEvent[] = await collect(handle);
    expect(events.filter((event) => event.type === 'text_delta')).toHaveLength(256);
    expect((await handle.result).response?.length).toBe(big.length);
  });

  it('three approvals in a row in one streamed run keep the history valid at every step', async () => {
    const danger = recordingTool('danger');
    const model = createScriptedModel((request): ScriptedTurn => {
      const done = request.messages.filter((message) => message.role === 'tool').length;
      return done < 3
        ? { toolCalls: [{ id: `c${done}`, name: 'danger', arguments: { step: done } }] }
        : { text: 'three done' };
    });
    const { runtime, store } = createHarness(
      { tools: [danger.tool], plugins: [approvalPlugin(['danger'])] },
      { model },
    );
    const handle = runtime.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
    const reading = collect(handle);
    for (const id of ['c0', 'c1', 'c2']) {
      await until(async () => (await store.getRun(handle.runId))?.waiting?.tickets[0]?.toolCallId === id);
      await handle.decide(approve(id));
    }
    expect(await handle.result).toMatchObject({ status: 'done', response: 'three done' });
    await reading;
    for (const request of model.requests) expect(historyIsValid(request.messages)).toBe(true);
    expect(danger.count()).toBe(3);
  });
});
