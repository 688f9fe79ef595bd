import { createTestStore } from '../test-support/recording-store';
import type { AgentEvent, InferenceRequest, Message } from '@awaken/contract';
import { type ScriptedTurn, createScriptedModel, echoTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approvalPlugin, recordingTool } from '../test-support/approval';
import { createCrashingStore } from '../test-support/crashing-store';
import { approve, collect, createHarness, historyIsValid, reject, until } from '../test-support/harness';

/** Peer-pitfalls rows (reference/peer-pitfalls.md) that concern the runtime, one test each. */

const twoDangerCalls = (args: [unknown, unknown] = [{ n: 1 }, { n: 2 }]): ScriptedTurn => ({
  toolCalls: [
    { id: 'a', name: 'danger', arguments: args[0] },
    { id: 'b', name: 'danger', arguments: args[1] },
  ],
});

function setup(
  options: { parallel?: boolean; store?: ReturnType<typeof createTestStore>; turns?: ScriptedTurn[] } = {},
) {
  const danger = recordingTool('danger');
  const model = createScriptedModel(options.turns ?? [twoDangerCalls(), { text: 'continued' }]);
  const harness = createHarness(
    {
      tools: [danger.tool, echoTool],
      plugins: [approvalPlugin(['danger'])],
      toolExecution: options.parallel === false ? 'sequential' : 'parallel',
    },
    { model, ...(options.store ? { store: options.store } : {}) },
  );
  return { ...harness, danger, model };
}

const requestMessages = (
  model: { requests: Array<Omit<InferenceRequest, 'signal'>> },
  index: number,
): readonly Message[] => model.requests[index]?.messages ?? [];

describe('peer pitfalls', () => {
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

  it('the event stream ends promptly with run_finish(suspended) when a call suspends', async () => {
    const { runtime } = setup({ parallel: false, turns: [twoDangerCalls()] });
    const events = await collect(runtime.run({ agentId: 'agent', input: 'go' }));
    expect(events.at(-1)).toMatchObject({
      type: 'run_finish',
      status: 'waiting',
      termination: { type: 'suspended' },
    });
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

  it('stream termination does not depend on optional hooks or callbacks', async () => {
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

  it('a retry after a failure does not re-execute a tool whose result was committed', async () => {
    const store = createTestStore();
    const echoRuns = recordingTool('work');
    const turns: ScriptedTurn[] = [
      { toolCalls: [{ id: 'w', name: 'work', arguments: {} }] },
      { text: 'finished' },
    ];
    const crashing = createHarness(
      { tools: [echoRuns.tool] },
      { store: createCrashingStore(store, 3), turns },
    );
    // the store refuses every later write: the run cannot even be ended, so it stays resumable
    await expect(
      crashing.runtime.runToCompletion({ agentId: 'agent', runId: 'r', input: 'go' }),
    ).rejects.toMatchObject({
      code: 'store_failure',
    });
    expect((await store.getRun('r'))?.status).toBe('running');
    expect(echoRuns.count('w')).toBe(1);
    const retry = createHarness({ tools: [echoRuns.tool] }, { store, turns: [{ text: 'finished' }] });
    expect(await retry.runtime.resumeRun('r').result).toMatchObject({ status: 'done', response: 'finished' });
    expect(echoRuns.count('w')).toBe(1);
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
