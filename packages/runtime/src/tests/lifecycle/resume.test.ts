import { createTestStore } from '../../../test-support/recording-store';
import type { AgentEvent, InferenceRequest, Message } from '@awaken/contract';
import { type ScriptedTurn, countExecutions, createScriptedModel, echoTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { createCrashingStore } from '../../../test-support/crashing-store';
import { approve, collect, createHarness, historyIsValid, until } from '../../../test-support/harness';

/** Answers from the history alone, so any runtime instance continues the same conversation. */
function conversationModel() {
  return createScriptedModel((request: InferenceRequest): ScriptedTurn => {
    const toolMessages = request.messages.filter((message) => message.role === 'tool').length;
    if (toolMessages === 0) {
      return {
        toolCalls: [
          { id: 'a', name: 'danger', arguments: { n: 1 } },
          { id: 's', name: 'echo', arguments: { text: 'safe' } },
        ],
      };
    }
    return { text: `final after ${toolMessages} results` };
  });
}

function agentParts() {
  const danger = recordingTool('danger');
  const echo = countExecutions(echoTool);
  return { danger, echo, agent: { tools: [danger.tool, echo.tool], plugins: [approvalPlugin(['danger'])] } };
}

const roles = (messages: readonly Message[]) => messages.map((message) => message.role);

function comparable(events: readonly AgentEvent[]) {
  return events.map(({ at: _at, ...rest }) => {
    const copy = { ...rest } as Record<string, unknown>;
    if ('messageId' in copy) copy.messageId = 'm';
    if ('durationMs' in copy) copy.durationMs = 0;
    // when a decision was applied is a time, like `at`
    if (copy.type === 'decision_recorded') copy.record = { ...(copy.record as object), appliedAt: 0 };
    return copy;
  });
}

describe('resumability', () => {
  it('cold-resumes a waiting run in a fresh runtime sharing only the store', async () => {
    const store = createTestStore();
    const parts = agentParts();
    const model = conversationModel();
    const first = createHarness(parts.agent, { store, model });
    const waiting = await first.runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(waiting.status).toBe('waiting');
    const fresh = createHarness(parts.agent, { store, model });
    const result = await fresh.runtime.resumeRun(waiting.runId, { decisions: [approve('a')] }).result;
    expect(result).toMatchObject({ status: 'done', response: 'final after 2 results' });
    expect([parts.danger.count('a'), parts.echo.count('s')]).toEqual([1, 1]);
    expect(model.callCount).toBe(2);
  });

  it('returns a finished run fed back without calling the model', async () => {
    const store = createTestStore();
    const model = createScriptedModel([{ text: 'done' }]);
    const { runtime } = createHarness({}, { store, model });
    const finished = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const fresh = createHarness({}, { store, model: createScriptedModel() });
    const handle = fresh.runtime.resumeRun(finished.runId);
    expect(await collect(handle)).toEqual([]);
    expect(await handle.result).toEqual(finished);
    expect(model.callCount).toBe(1);
  });

  it('continues after a crash at every checkpoint without re-running committed tools or turns', async () => {
    const reference = (() => {
      const parts = agentParts();
      return { parts, harness: createHarness(parts.agent, { model: conversationModel() }) };
    })();
    const waiting = await reference.harness.runtime.runToCompletion({
      agentId: 'agent',
      runId: 'r',
      threadId: 't',
      input: 'go',
    });
    await reference.harness.runtime.resumeRun(waiting.runId, { decisions: [approve('a')] }).result;
    const expected = (await reference.harness.store.readMessages('t')).map((record) => record.message);
    const totalCommits = (reference.harness.store as unknown as { checkpoints: unknown[] }).checkpoints
      .length;
    // among them the suspension's own checkpoint (stored before it is announced): each is a crash point below
    expect(totalCommits).toBe(8);

    for (let crashAfter = 0; crashAfter < totalCommits; crashAfter += 1) {
      const store = createTestStore();
      const parts = agentParts();
      const model = conversationModel();
      const crashing = createHarness(parts.agent, { store: createCrashingStore(store, crashAfter), model });
      // once the store refuses writes, the activation stops without ending the run (result rejects)
      const first = await crashing.runtime
        .runToCompletion({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' })
        .catch(() => undefined);
      if (first?.status === 'waiting') {
        await crashing.runtime.resumeRun('r', { decisions: [approve('a')] }).result.catch(() => undefined);
      }
      const lostTurns = model.callCount;
      const committedBefore = new Set(
        (await store.readMessages('t')).flatMap((record) =>
          record.message.role === 'tool' ? [record.message.toolCallId] : [],
        ),
      );
      const executedBefore = { a: parts.danger.count('a'), s: parts.echo.count('s') };

      const fresh = createHarness(parts.agent, { store, model });
      let result = await fresh.runtime.resumeRun('r', { decisions: [approve('a')] }).result;
      if (result.status === 'waiting')
        result = await fresh.runtime.resumeRun('r', { decisions: [approve('a', {}, 'again')] }).result;
      expect(result, `crash after ${crashAfter}`).toMatchObject({
        status: 'done',
        response: 'final after 2 results',
      });
      const messages = (await store.readMessages('t')).map((record) => record.message);
      expect(messages, `crash after ${crashAfter}`).toEqual(expected);
      expect(historyIsValid(messages)).toBe(true);
      for (const id of committedBefore) {
        const now = id === 'a' ? parts.danger.count('a') : parts.echo.count('s');
        expect(now, `committed call ${id} re-ran after crash ${crashAfter}`).toBe(
          id === 'a' ? executedBefore.a : executedBefore.s,
        );
      }
      expect(model.callCount - lostTurns, `model calls after crash ${crashAfter}`).toBeLessThanOrEqual(2);
      expect(model.callCount, `total model calls, crash ${crashAfter}`).toBeLessThanOrEqual(3);
    }
  });

  it('hot and cold resume yield the same events after the resume point and the same messages', async () => {
    const hotParts = agentParts();
    const hot = createHarness(hotParts.agent, { model: conversationModel() });
    const handle = hot.runtime.run({
      agentId: 'agent',
      runId: 'r',
      threadId: 't',
      input: 'go',
      onSuspend: 'wait',
    });
    const hotEvents: AgentEvent[] = [];
    const reading = (async () => {
      for await (const event of handle) hotEvents.push(event);
    })();
    await until(() => hotEvents.some((event) => event.type === 'run_finish'));
    await handle.decide(approve('a'));
    await handle.result;
    await reading;
    const suspendAt = hotEvents.findIndex((event) => event.type === 'run_finish');

    const coldParts = agentParts();
    const store = createTestStore();
    const model = conversationModel();
    const before = createHarness(coldParts.agent, { store, model });
    const coldFirst = await collect(
      before.runtime.run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' }),
    );
    const after = createHarness(coldParts.agent, { store, model });
    const coldSecond = await collect(after.runtime.resumeRun('r', { decisions: [approve('a')] }));

    expect(comparable(coldFirst)).toEqual(comparable(hotEvents.slice(0, suspendAt + 1)));
    expect(comparable(coldSecond)).toEqual(comparable(hotEvents.slice(suspendAt + 1)));
    expect(coldSecond[0]).toMatchObject({ type: 'run_start', resumed: true, seq: suspendAt + 2 });
    const hotMessages = (await hot.store.readMessages('t')).map((record) => record.message);
    const coldMessages = (await store.readMessages('t')).map((record) => record.message);
    expect(coldMessages).toEqual(hotMessages);
    expect(roles(coldMessages)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
  });

  it('continues the event seq from the event log on cold resume', async () => {
    const store = createTestStore();
    const logged: AgentEvent[] = [];
    const eventLog = {
      append: async (_runId: string, events: readonly AgentEvent[]) => void logged.push(...events),
      read: async () => logged,
      tail: async () => [],
      lastSeq: async () => logged.at(-1)?.seq ?? 0,
      finish: async () => {},
      isFinished: async () => false,
      raiseFence: async () => logged.at(-1)?.seq ?? 0,
    };
    const parts = agentParts();
    const model = conversationModel();
    const first = createHarness(parts.agent, { store, model, eventLog });
    const handle = first.runtime.run({ agentId: 'agent', runId: 'r', input: 'go' });
    const streamed = await collect(handle);
    expect(streamed).toEqual(logged);
    const second = createHarness(parts.agent, { store, model, eventLog });
    await second.runtime.resumeRun('r', { decisions: [approve('a')] }).result;
    expect(logged.map((event) => event.seq)).toEqual(logged.map((_, index) => index + 1));
  });
});
