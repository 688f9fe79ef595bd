import { AwakenError, answer, decisionControl } from '@awaken/contract';
import { createMemoryStores, createMemoryThreadRunStore } from '@awaken/store-memory';
import { createScriptedModel, pendingTool } from '@awaken/testing';
import { describe, expect, it, vi } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import type { AgentRuntimeOptions } from '../../types';

const turns = () => [
  { toolCalls: [{ id: 'q', name: 'ask_human', arguments: { question: 'why?' } }] },
  { text: 'ok' },
];

function expectInvalidConfig(create: () => unknown, mention: RegExp) {
  let caught: unknown;
  try {
    create();
  } catch (error) {
    caught = error;
  }
  expect(AwakenError.hasCode(caught, 'invalid_config')).toBe(true);
  expect((caught as Error).message).toMatch(mention);
}

describe('createAgentRuntime stores', () => {
  it('takes the memory store bundle as is: runs, logs events and reads decisions from its inbox', async () => {
    const stores = createMemoryStores();
    const model = createScriptedModel(turns());
    const runtime = createAgentRuntime({ agents: [{ id: 'a', model, tools: [pendingTool] }], stores });
    const waiting = await runtime.runToCompletion({ agentId: 'a', runId: 'r', input: 'go' });
    expect(waiting.status).toBe('waiting');
    expect((await stores.threadRuns.getRun('r'))?.status).toBe('waiting');
    expect(await stores.eventLog.lastSeq('r')).toBeGreaterThan(0);
    await stores.inbox.put('r', decisionControl(answer(waiting.waiting!.tickets[0]!, 'because')));
    expect(await runtime.resumeRun('r').result).toMatchObject({ status: 'done', response: 'ok' });
  });

  it('refuses a missing or incomplete store at creation, naming it', () => {
    const model = createScriptedModel([]);
    const agents = [{ id: 'a', model }];
    expectInvalidConfig(() => createAgentRuntime({ agents } as unknown as AgentRuntimeOptions), /stores/);
    expectInvalidConfig(
      () => createAgentRuntime({ agents, stores: {} } as unknown as AgentRuntimeOptions),
      /stores\.threadRuns/,
    );
    expectInvalidConfig(
      () =>
        createAgentRuntime({
          agents,
          stores: { threadRuns: createMemoryThreadRunStore(), eventLog: {} },
        } as unknown as AgentRuntimeOptions),
      /stores\.eventLog.*append/,
    );
    // the old single-store option points at the new one
    expectInvalidConfig(
      () =>
        createAgentRuntime({ agents, store: createMemoryThreadRunStore() } as unknown as AgentRuntimeOptions),
      /stores: \{ threadRuns/,
    );
  });

  it("refuses runToCompletion({ onSuspend: 'wait' }) when no decision can ever reach the run", async () => {
    const model = createScriptedModel(turns());
    const runtime = createAgentRuntime({
      agents: [{ id: 'a', model, tools: [pendingTool] }],
      stores: { threadRuns: createMemoryThreadRunStore() },
    });
    const refused = runtime.runToCompletion({ agentId: 'a', input: 'go', onSuspend: 'wait' });
    await expect(refused).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(refused).rejects.toThrow(/onSuspend/);
    expect(model.callCount).toBe(0);
  });

  it("lets runToCompletion({ onSuspend: 'wait' }) settle through the inbox", async () => {
    const stores = createMemoryStores();
    const runtime = createAgentRuntime({
      agents: [{ id: 'a', model: createScriptedModel(turns()), tools: [pendingTool] }],
      stores,
    });
    const result = runtime.runToCompletion({ agentId: 'a', runId: 'r', input: 'go', onSuspend: 'wait' });
    await vi.waitFor(async () => expect((await stores.threadRuns.getRun('r'))?.status).toBe('waiting'));
    const waiting = await stores.threadRuns.getRun('r');
    await stores.inbox.put('r', decisionControl(answer(waiting!.waiting!.tickets[0]!, 'because')));
    expect(await result).toMatchObject({ status: 'done', response: 'ok' });
  });
});
