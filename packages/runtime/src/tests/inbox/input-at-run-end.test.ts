import type { InferenceRequest, ModelExecutor, RunControl, ThreadRunStore } from '@awaken/contract';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createSharedStores } from '../../../test-support/shared-stores';
import { createAgentRuntime } from '../../create-agent-runtime';

const userCount = (request: InferenceRequest) =>
  request.messages.filter((message) => message.role === 'user').length;

/** A model that answers `seen <user messages>`; `onFirst` runs before its first answer is streamed. */
function answeringModel(onFirst: () => Promise<void>): ModelExecutor {
  const scripted = createScriptedModel((request) => ({ text: `seen ${userCount(request)}` }));
  let first = true;
  return {
    async *stream(request) {
      if (first) {
        first = false;
        await onFirst();
      }
      yield* scripted.stream(request);
    },
  };
}

describe('input injected while the run ends', () => {
  it('input that arrives while the model writes its final answer is answered before the run ends', async () => {
    const s = createSharedStores();
    const model = answeringModel(async () => {
      const stored = await s.inbox.put('r', {
        kind: 'input',
        id: 'in1',
        at: 1,
        messages: [{ role: 'user', content: 'one more thing' }],
      });
      expect(stored).toBe('stored');
    });
    const runtime = createAgentRuntime({
      agents: [{ id: 'agent', model }],
      stores: { threadRuns: s.store, eventLog: s.eventLog, inbox: s.inbox },
    });
    const result = await runtime.run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'hi' }).result;
    expect(result).toMatchObject({
      status: 'done',
      response: 'seen 2',
      termination: { type: 'natural_end' },
    });
    const history = (await s.store.readMessages('t')).map((record) => record.message);
    expect(history.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(await s.inbox.peek('r')).toEqual([]);
  });

  it('input that arrives once the run is ending is not applied and stays in the inbox for the embedder', async () => {
    const s = createSharedStores();
    let open: () => void = () => {};
    let entered: () => void = () => {};
    const inFinal = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const store: ThreadRunStore = Object.create(s.store);
    store.commitCheckpoint = async (checkpoint) => {
      if (checkpoint.trigger === 'run_finished') {
        entered();
        await gate;
      }
      return s.store.commitCheckpoint(checkpoint);
    };
    const runtime = createAgentRuntime({
      agents: [{ id: 'agent', model: answeringModel(async () => {}) }],
      stores: { threadRuns: store, eventLog: s.eventLog, inbox: s.inbox },
    });
    const handle = runtime.run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'hi' });
    await inFinal;
    const late: RunControl = {
      kind: 'input',
      id: 'in1',
      at: 1,
      messages: [{ role: 'user', content: 'too late' }],
    };
    expect(await s.inbox.put('r', late)).toBe('stored');
    open();
    expect(await handle.result).toMatchObject({ status: 'done', response: 'seen 1' });
    // the run is done: nothing applies it any more; the entry is left for whoever embeds the runtime
    // (the server turns it into the thread's next run) and expires with the run's event log
    expect(await s.inbox.peek('r')).toEqual([late]);
    expect((await s.store.readMessages('t')).map((record) => record.message.role)).toEqual([
      'user',
      'assistant',
    ]);
  });
});
