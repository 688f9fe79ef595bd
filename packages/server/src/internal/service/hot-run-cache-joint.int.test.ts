import { randomUUID } from 'node:crypto';
import {
  type ThreadRunStore,
  jointCheckpointWriter,
  runEventLogInputs,
  threadRunStoreInputs,
  trustedViewOf,
} from '@awaken/contract';
import { createAgentRuntime } from '@awaken/runtime';
import { type RedisStores, createRedisStores } from '@awaken/store-redis';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { memoryCounters } from '../../../test-support/counters';
import { AGENT_ID, scenarioAgent } from '../../../test-support/scenario-agent';
import { createHotRunCache } from './hot-run-cache';

describe('the hot run cache over a store with the joint checkpoint write', () => {
  let redis: RedisStores;
  beforeEach(() => {
    redis = createRedisStores({ redis: inject('redisUrl'), prefix: `hot-joint:${randomUUID()}:` });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await redis.close();
  });

  it('offers the inner store joint write and sees each joint checkpoint like a plain one', async () => {
    // the plain checkpoint fails: the run can only get through the joint write
    const real = redis.threadRuns;
    const inner = new Proxy(real, {
      get(target, key) {
        if (key === 'commitCheckpoint')
          return () => Promise.reject(new Error('the plain checkpoint must not be used'));
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as ThreadRunStore;
    const cache = createHotRunCache(inner, 4);
    expect(jointCheckpointWriter(cache.store, redis.eventLog)).toBeDefined();
    const runtime = createAgentRuntime({
      agents: [scenarioAgent(memoryCounters())],
      stores: { threadRuns: cache.store, eventLog: redis.eventLog },
    });
    await runtime.createRun({ agentId: AGENT_ID, runId: 'r0', threadId: 't0', input: 'approve:1' });
    const result = await runtime.resumeRun('r0').result;
    expect(result.status).toBe('waiting');
    // the suspension's checkpoint reached the cache
    expect(cache.has('r0')).toBe(true);
    const events = await redis.eventLog.read('r0');
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect((await redis.threadRuns.getRun('r0'))?.status).toBe('waiting');
  });

  it('hands the runtime the trusted joint write of the store it wraps: no checkpoint or event parse', async () => {
    const cache = createHotRunCache(redis.threadRuns, 4);
    expect(trustedViewOf(cache.store)).not.toBe(cache.store);
    const checkpointParses = vi.spyOn(threadRunStoreInputs.commitCheckpoint, 'parse');
    const appendParses = vi.spyOn(runEventLogInputs.append, 'parse');
    const runtime = createAgentRuntime({
      agents: [scenarioAgent(memoryCounters())],
      stores: { threadRuns: cache.store, eventLog: redis.eventLog },
    });
    await runtime.createRun({ agentId: AGENT_ID, runId: 'r0', threadId: 't0', input: 'approve:1' });
    expect((await runtime.resumeRun('r0').result).status).toBe('waiting');
    expect(cache.has('r0')).toBe(true);
    const decision = {
      toolCallId: 'approve_me_0_0',
      decisionId: 'd0',
      action: 'resume' as const,
      result: true,
      updatedAt: 1,
    };
    const done = await runtime.resumeRun('r0', { decisions: [decision] }).result;
    expect(done).toMatchObject({ status: 'done', response: 'done after 1 results' });
    expect(cache.hits).toBe(1);
    expect(checkpointParses).not.toHaveBeenCalled();
    expect(appendParses).not.toHaveBeenCalled();
    // the store the cache was given still parses what a caller sends it
    const stored = await redis.threadRuns.getRun('r0');
    if (!stored) throw new Error('run r0 not stored');
    await expect(
      cache.store.commitCheckpoint({
        trigger: 'run_finished',
        threadId: 't0',
        expectedMessageCount: 0,
        messages: [],
        run: { ...stored, threadId: 'another-thread' },
      }),
    ).rejects.toMatchObject({ code: 'validation_failed' });
    expect(checkpointParses).toHaveBeenCalledTimes(1);
  });
});
