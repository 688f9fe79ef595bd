import { type Plugin, defineStateKey } from '@awaken/contract';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import { inspectRuntime } from '../../internal/runtime/runtime-internals';
import type { AgentRuntime, AgentRuntimeOptions } from '../../types';

/** Counts the runs of a thread in non-persistent thread state: it lives only in this process. */
const seen = defineStateKey({ name: 'seen', scope: 'thread', persistent: false, initial: () => 0 });
/** A persistent thread key: stored with the thread, restored by every run. */
const grants = defineStateKey({ name: 'grants', scope: 'thread', persistent: true, initial: () => 0 });

const persisting: Plugin = {
  id: 'persisting',
  stateKeys: [grants],
  hooks: { runStart: (context) => void context.state.update(grants, (n) => n + 1) },
};

function runtimeWith(plugin: Plugin, extra: Partial<AgentRuntimeOptions> = {}): AgentRuntime {
  return createAgentRuntime({
    agents: [{ id: 'agent', model: createScriptedModel(() => ({ text: 'ok' })), plugins: [plugin] }],
    stores: { threadRuns: createMemoryThreadRunStore() },
    ...extra,
  });
}

const runOn = (runtime: AgentRuntime, threadId: string) =>
  runtime.runToCompletion({ agentId: 'agent', threadId, input: 'hi' });

describe('a long-running runtime does not grow with the threads it served', () => {
  it('keeps nothing per run or per thread once the runs of many threads ended', async () => {
    const runtime = runtimeWith(persisting);
    for (let index = 0; index < 50; index += 1) {
      expect((await runOn(runtime, `t${index}`)).status).toBe('done');
    }
    // the persistent thread key lives in the store; the next run of the thread restores it
    expect((await runOn(runtime, 't0')).status).toBe('done');
    expect(inspectRuntime(runtime).liveRuns()).toBe(0);
    expect(inspectRuntime(runtime).threadMemory()).toBe(0);
  });

  it('keeps in-memory thread state for the most recent threadMemoryLimit idle threads only', async () => {
    const observed: Record<string, number> = {};
    const counting: Plugin = {
      id: 'counting',
      stateKeys: [seen],
      hooks: {
        runStart: (context) => {
          observed[context.threadId] = context.state.update(seen, (n) => n + 1);
        },
      },
    };
    const runtime = runtimeWith(counting, { threadMemoryLimit: 3 });
    for (let index = 0; index < 10; index += 1) await runOn(runtime, `t${index}`);
    expect(inspectRuntime(runtime).threadMemory()).toBe(3);
    // a recent thread still has it; an old one starts over
    await runOn(runtime, 't9');
    expect(observed.t9).toBe(2);
    await runOn(runtime, 't0');
    expect(observed.t0).toBe(1);
    expect(inspectRuntime(runtime).threadMemory()).toBe(3);
  });

  it('refuses a threadMemoryLimit that is not a non-negative integer', () => {
    expect(() => runtimeWith(persisting, { threadMemoryLimit: -1 })).toThrow(
      expect.objectContaining({ code: 'invalid_config' }),
    );
  });
});
