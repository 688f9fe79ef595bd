import type { ThreadRunStore } from '@awaken/contract';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { describe, expect, it } from 'vitest';
import { memoryCounters } from '../../../test-support/counters';
import { AGENT_ID, scenarioAgent } from '../../../test-support/scenario-agent';
import { createHotRunCache } from './hot-run-cache';

/** Counts full history reads reaching the real store. */
function countingStore(inner: ThreadRunStore) {
  let fullReads = 0;
  const store: ThreadRunStore = {
    ...Object.fromEntries(
      Object.keys(inner).map((key) => [key, (inner as never as Record<string, Function>)[key]?.bind(inner)]),
    ),
    readMessages(threadId, range) {
      if (range?.from === undefined) fullReads += 1;
      return inner.readMessages(threadId, range);
    },
  } as ThreadRunStore;
  return { store, fullReads: () => fullReads };
}

const approve = (toolCallId: string) => ({
  toolCallId,
  decisionId: `d_${toolCallId}`,
  action: 'resume' as const,
  result: true,
  updatedAt: 1,
});

async function suspendedRun(capacity: number, runs = 1, input = 'approve:1') {
  const real = createMemoryThreadRunStore();
  const counting = countingStore(real);
  const cache = createHotRunCache(counting.store, capacity);
  const runtime = createAgentRuntime({
    agents: [scenarioAgent(memoryCounters())],
    stores: { threadRuns: cache.store },
  });
  for (let index = 0; index < runs; index += 1) {
    await runtime.createRun({
      agentId: AGENT_ID,
      runId: `r${index}`,
      threadId: `t${index}`,
      input,
    });
    await runtime.resumeRun(`r${index}`).result;
  }
  return { real, cache, runtime, fullReads: counting.fullReads };
}

describe('the hot run cache', () => {
  it('keeps a suspended run and resumes it without reading its whole history again', async () => {
    const { cache, runtime, fullReads } = await suspendedRun(4);
    expect(cache.has('r0')).toBe(true);
    const before = fullReads();
    const done = await runtime.resumeRun('r0', { decisions: [approve('approve_me_0_0')] }).result;
    expect(done).toMatchObject({ status: 'done', response: 'done after 1 results' });
    expect(fullReads()).toBe(before);
    expect(cache.hits).toBe(1);
    expect(cache.has('r0')).toBe(false);
  });

  it('resumes cold when the stored checkpoint moved past the cached copy', async () => {
    const { real, cache, runtime, fullReads } = await suspendedRun(4, 1, 'approve:2');
    // another process applies one decision: the run still waits, at a newer version
    const other = createAgentRuntime({
      agents: [scenarioAgent(memoryCounters())],
      stores: { threadRuns: real },
    });
    expect((await other.resumeRun('r0', { decisions: [approve('approve_me_0_0')] }).result).status).toBe(
      'waiting',
    );
    const before = fullReads();
    const result = await runtime.resumeRun('r0', { decisions: [approve('approve_me_0_1')] }).result;
    expect(result).toMatchObject({ status: 'done', response: 'done after 2 results' });
    expect(cache.misses).toBe(1);
    expect(cache.hits).toBe(0);
    expect(fullReads()).toBe(before + 1);
  });

  it('serves messages appended after the copy was taken (append-only log, delta read)', async () => {
    const { real, cache, runtime } = await suspendedRun(4);
    await real.appendMessages('t0', {
      expectedLength: await real.messageCount('t0'),
      messages: [{ visibility: 'internal', message: { role: 'system', content: 'note' } }],
    });
    const served = await (async () => {
      await cache.store.getRun('r0');
      return cache.store.readMessages('t0');
    })();
    expect(served).toEqual(await real.readMessages('t0'));
    expect(served.at(-1)?.message).toEqual({ role: 'system', content: 'note' });
    expect((await runtime.resumeRun('r0', { decisions: [approve('approve_me_0_0')] }).result).status).toBe(
      'done',
    );
  });

  it('serves a load that reads the run record twice (again once it holds the run)', async () => {
    const { cache, fullReads } = await suspendedRun(4);
    const before = fullReads();
    await cache.store.getRun('r0');
    await cache.store.getRun('r0');
    await Promise.all([cache.store.readMessages('t0'), cache.store.getThreadState('t0')]);
    expect(fullReads()).toBe(before);
    expect(cache.hits).toBe(1);
  });

  it('holds at most its capacity, dropping the oldest', async () => {
    const { cache } = await suspendedRun(2, 3);
    expect(cache.size()).toBe(2);
    expect([cache.has('r0'), cache.has('r1'), cache.has('r2')]).toEqual([false, true, true]);
  });

  it('keeps nothing with capacity 0', async () => {
    const { cache } = await suspendedRun(0);
    expect(cache.size()).toBe(0);
  });
});
