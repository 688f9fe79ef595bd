import { AwakenError } from '@awaken/contract';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { countExecutions, createScriptedModel, echoTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';

const rateLimited = () =>
  new AwakenError('model_transient', 'rate limited', { retryable: true, retryAfterMs: 50 });

function setup(transientModelErrors?: 'end_run' | 'interrupt') {
  const store = createMemoryThreadRunStore();
  const echo = countExecutions(echoTool);
  // step 1 calls echo; step 2's first attempt is rate limited; the retry answers
  const model = createScriptedModel([
    { toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'x' } }] },
    { error: rateLimited() },
    { text: 'final answer' },
  ]);
  const options = { agents: [{ id: 'agent', tools: [echo.tool] }], stores: { threadRuns: store }, model };
  const runtime = createAgentRuntime(transientModelErrors ? { ...options, transientModelErrors } : options);
  return { store, echo, model, runtime, options };
}

describe('transient model errors', () => {
  it('end the run with error by default', async () => {
    const { runtime } = setup();
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result).toMatchObject({ status: 'done', termination: { type: 'error', code: 'model_transient' } });
  });

  it('with interrupt, leave the run running at its checkpoint and resume without repeating work', async () => {
    const { runtime, store, echo, model, options } = setup('interrupt');
    const handle = runtime.run({ agentId: 'agent', input: 'go' });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of handle) seen.push(event.type);
      })(),
    ).rejects.toMatchObject({ code: 'model_transient' });
    await expect(handle.result).rejects.toMatchObject({
      code: 'model_transient',
      retryable: true,
      retryAfterMs: 50,
    });
    expect(seen.at(-1)).toBe('error');
    expect(seen).not.toContain('run_finish');
    const stored = await store.getRun(handle.runId);
    expect(stored?.status).toBe('running');

    // a fresh runtime (another worker after backoff) continues from the store alone
    const resumed = await createAgentRuntime({ ...options, transientModelErrors: 'interrupt' }).resumeRun(
      handle.runId,
    ).result;
    expect(resumed).toMatchObject({
      status: 'done',
      termination: { type: 'natural_end' },
      response: 'final answer',
    });
    expect(echo.count('c1')).toBe(1);
    expect(model.callCount).toBe(3);
    const history = (await store.readMessages(handle.threadId)).map((record) => record.message.role);
    expect(history).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('with interrupt, still end the run when it was cancelled', async () => {
    const { runtime } = setup('interrupt');
    const controller = new AbortController();
    controller.abort('user left');
    const result = await runtime.runToCompletion({
      agentId: 'agent',
      input: 'go',
      signal: controller.signal,
    });
    expect(result).toMatchObject({ status: 'done', termination: { type: 'cancelled' } });
  });
});
