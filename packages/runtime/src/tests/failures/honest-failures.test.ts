import { AwakenError, type Checkpoint, type ThreadRunStore, defineTool } from '@awaken/contract';
import { createMemoryRunEventLog, createMemoryThreadRunStore } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentRuntime } from '../../create-agent-runtime';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { historyIsValid } from '../../../test-support/harness';

/** Fails the first `run_finished` checkpoint that would end the run, as one Redis blip would. */
function failFirstFinalCheckpoint(inner: ThreadRunStore): ThreadRunStore {
  let failed = false;
  return Object.assign(Object.create(inner) as ThreadRunStore, {
    commitCheckpoint(checkpoint: Checkpoint) {
      if (!failed && checkpoint.trigger === 'run_finished' && checkpoint.run.status === 'done') {
        failed = true;
        return Promise.reject(
          new AwakenError('store_failure', 'redis: connection reset', { retryable: true }),
        );
      }
      return inner.commitCheckpoint(checkpoint);
    },
  });
}

/** Fails every checkpoint that would end the run: the final checkpoint cannot be written at all. */
function refuseFinalCheckpoints(inner: ThreadRunStore): ThreadRunStore {
  return Object.assign(Object.create(inner) as ThreadRunStore, {
    commitCheckpoint(checkpoint: Checkpoint) {
      if (checkpoint.trigger === 'run_finished' && checkpoint.run.status === 'done') {
        return Promise.reject(
          new AwakenError('store_failure', 'redis: READONLY replica', { retryable: true }),
        );
      }
      return inner.commitCheckpoint(checkpoint);
    },
  });
}

function setup(wrap: (store: ThreadRunStore) => ThreadRunStore) {
  const store = createMemoryThreadRunStore();
  const eventLog = createMemoryRunEventLog();
  const runtime = (wrapped: boolean) =>
    createAgentRuntime({
      agents: [{ id: 'agent', model: createScriptedModel(() => ({ text: 'hello' })) }],
      stores: { threadRuns: wrapped ? wrap(store) : store, eventLog },
    });
  return { store, eventLog, runtime };
}

describe('a final checkpoint that fails', () => {
  it('is retried, so one blip does not fail the run', async () => {
    const { store, eventLog, runtime } = setup(failFirstFinalCheckpoint);
    const result = await runtime(true).runToCompletion({ agentId: 'agent', runId: 'r', input: 'hi' });
    expect(result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    expect(await store.getRun('r')).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    expect((await eventLog.read('r')).at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });
  });

  it.each(['resumeRun', 'cancelRun'] as const)(
    'leaves no run_finish, an open log and a run that %s can still finish',
    async (recovery) => {
      const { store, eventLog, runtime } = setup(refuseFinalCheckpoints);
      const handle = runtime(true).run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'hi' });
      await expect(handle.result).rejects.toMatchObject({ code: 'store_failure' });
      const events = await eventLog.read('r');
      expect(events.some((event) => event.type === 'run_finish')).toBe(false);
      expect(await eventLog.isFinished('r')).toBe(false);
      expect(await store.getRun('r')).toMatchObject({ status: 'running' });
      expect((await store.getThread('t'))?.activeRunId).toBe('r');

      const healthy = runtime(false);
      const result =
        recovery === 'resumeRun' ? await healthy.resumeRun('r').result : await healthy.cancelRun('r', 'stop');
      expect(result.status).toBe('done');
      const stored = await store.getRun('r');
      expect(stored).toMatchObject({ status: 'done', termination: result.termination });
      const log = await eventLog.read('r');
      expect(log.map((event) => event.seq)).toEqual(log.map((_, index) => index + 1));
      expect(log.at(-1)).toMatchObject({
        type: 'run_finish',
        status: 'done',
        termination: result.termination,
      });
      expect(log.filter((event) => event.type === 'run_finish' && event.status === 'done')).toHaveLength(1);
      expect(await eventLog.isFinished('r')).toBe(true);
      expect((await store.getThread('t'))?.activeRunId).toBeUndefined();
    },
  );
});

describe('malformed tool calls from the model', () => {
  const echo = () =>
    defineTool({
      name: 'echo',
      description: 'echo',
      parameters: z.object({}).passthrough(),
      execute: (args) => args,
    });
  const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;

  it.each([
    ['an empty tool call id', { id: '', name: 'echo', arguments: {} }],
    ['an empty tool name', { id: 'c1', name: '', arguments: {} }],
    ['arguments nested 20,000 deep', { id: 'c1', name: 'echo', arguments: deep }],
    ['unparseable arguments', { id: 'c1', name: 'echo', arguments: '{"a":' }],
  ])('turn %s into a failed tool result and the run continues', async (_label, call) => {
    const store = createMemoryThreadRunStore();
    const eventLog = createMemoryRunEventLog();
    const model = createScriptedModel([{ toolCalls: [call] }, { text: 'recovered' }]);
    const runtime = createAgentRuntime({
      agents: [{ id: 'agent', model, tools: [echo()] }],
      stores: { threadRuns: store, eventLog },
    });
    const result = await runtime.runToCompletion({
      agentId: 'agent',
      runId: 'r',
      threadId: 't',
      input: 'go',
    });
    expect(result).toMatchObject({
      status: 'done',
      termination: { type: 'natural_end' },
      response: 'recovered',
    });
    const messages = (await store.readMessages('t')).map((record) => record.message);
    expect(historyIsValid(messages)).toBe(true);
    expect(messages.filter((message) => message.role === 'tool')).toEqual([
      expect.objectContaining({ outcome: 'failed' }),
    ]);
    expect(await eventLog.isFinished('r')).toBe(true);
  });
});

describe('decision payloads the store cannot hold', () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  let nested: unknown = 1;
  for (let depth = 0; depth < 20_000; depth += 1) nested = { n: nested };

  it.each([
    ['a BigInt', { amount: 10n }],
    ['a cycle', cyclic],
    ['nesting 20,000 deep', nested],
    ['a non-finite number', { ratio: Number.NaN }],
  ])('rejects a payload with %s as invalid_payload before anything runs', async (_label, payload) => {
    const store = createMemoryThreadRunStore();
    const danger = recordingTool('danger');
    const runtime = createAgentRuntime({
      agents: [
        {
          id: 'agent',
          model: createScriptedModel([
            { toolCalls: [{ id: 'a', name: 'danger', arguments: {} }] },
            { text: 'ok' },
          ]),
          tools: [danger.tool],
          plugins: [approvalPlugin(['danger'])],
        },
      ],
      stores: { threadRuns: store },
    });
    const waiting = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const decision = {
      toolCallId: 'a',
      decisionId: 'd1',
      action: 'resume' as const,
      result: payload,
      updatedAt: 1,
    };
    const resumed = runtime.resumeRun(waiting.runId, { decisions: [decision] });
    expect(await resumed.receipts).toMatchObject([{ status: 'rejected', reason: 'invalid_payload' }]);
    expect(await resumed.result).toMatchObject({ status: 'waiting' });
    expect(danger.count()).toBe(0);
    expect(await store.getRun(waiting.runId)).toMatchObject({ status: 'waiting' });
    const fine = await runtime.resumeRun(waiting.runId, {
      decisions: [{ ...decision, decisionId: 'd2', result: { ok: true } }],
    }).result;
    expect(fine).toMatchObject({ status: 'done', response: 'ok' });
    expect(danger.count()).toBe(1);
  });
});

describe('a tool call id that names an Object.prototype member', () => {
  it('keeps the call __proto__ in the checkpoint, so a cold resume applies its decision', async () => {
    const store = createMemoryThreadRunStore();
    const danger = recordingTool('danger');
    const agents = [
      {
        id: 'agent',
        model: createScriptedModel((request) =>
          request.messages.at(-1)?.role === 'user'
            ? { toolCalls: [{ id: '__proto__', name: 'danger', arguments: {} }] }
            : { text: 'ok' },
        ),
        tools: [danger.tool],
        plugins: [approvalPlugin(['danger'])],
      },
    ];
    const waiting = await createAgentRuntime({ agents, stores: { threadRuns: store } }).runToCompletion({
      agentId: 'agent',
      input: 'go',
    });
    expect(waiting.waiting?.tickets.map((ticket) => ticket.toolCallId)).toEqual(['__proto__']);
    const decision = {
      toolCallId: '__proto__',
      decisionId: 'd1',
      action: 'resume' as const,
      result: true,
      updatedAt: 1,
    };
    const resumed = createAgentRuntime({ agents, stores: { threadRuns: store } }).resumeRun(waiting.runId, {
      decisions: [decision],
    });
    expect(await resumed.receipts).toMatchObject([{ status: 'accepted' }]);
    expect(await resumed.result).toMatchObject({ status: 'done', response: 'ok' });
    expect(danger.count('__proto__')).toBe(1);
  });
});
