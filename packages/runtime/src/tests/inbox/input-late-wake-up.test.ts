import type { InferenceRequest, ModelExecutor, RunControlInbox } from '@awaken/contract';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createSharedStores } from '../../../test-support/shared-stores';
import { createAgentRuntime } from '../../create-agent-runtime';

const userCount = (request: InferenceRequest) =>
  request.messages.filter((message) => message.role === 'user').length;

/**
 * An inbox whose wake-ups arrive after the put that caused them has returned, as Redis pub/sub
 * delivers them (on another connection, after the put's own reply) — held here until `deliver()`.
 */
function lateWakeUpInbox(inner: RunControlInbox) {
  const held: Array<() => void> = [];
  const inbox: RunControlInbox = Object.create(inner);
  inbox.subscribe = (runId, listener) =>
    inner.subscribe(runId, () => {
      held.push(listener);
    });
  const deliver = () => {
    for (const wake of held.splice(0)) wake();
  };
  return { inbox, deliver };
}

describe('input injected while the model answers, its wake-up still in flight', () => {
  it('is answered before the run ends: the gate before the end peeks, whatever the wake-ups say', async () => {
    const s = createSharedStores();
    const { inbox, deliver } = lateWakeUpInbox(s.inbox);
    const scripted = createScriptedModel((request) => ({ text: `seen ${userCount(request)}` }));
    let first = true;
    const model: ModelExecutor = {
      async *stream(request) {
        if (first) {
          first = false;
          const stored = await s.inbox.put('r', {
            kind: 'input',
            id: 'in1',
            at: 1,
            messages: [{ role: 'user', content: 'one more thing' }],
          });
          expect(stored).toBe('stored');
        }
        yield* scripted.stream(request);
      },
    };
    const runtime = createAgentRuntime({
      agents: [{ id: 'agent', model }],
      stores: { threadRuns: s.store, eventLog: s.eventLog, inbox },
    });
    const result = await runtime.run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'hi' }).result;
    deliver();
    expect(result).toMatchObject({
      status: 'done',
      response: 'seen 2',
      termination: { type: 'natural_end' },
    });
    const history = (await s.store.readMessages('t')).map((record) => record.message);
    expect(history.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(await s.inbox.peek('r')).toEqual([]);
  });
});
