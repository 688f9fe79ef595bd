import { AwakenError, decisionControl } from '@awaken/contract';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import { type RuntimeWorker, forkRuntimeWorker } from '../../../test-support/fork-runtime-worker';
import { historyIsValid } from '../../../test-support/harness';
import { scenarioAgent } from '../../../test-support/redis-agents';
import {
  type RedisTestBed,
  approveWith,
  openTestBed,
  toolResults,
} from '../../../test-support/redis-harness';

/**
 * Process A keeps the `approvals` run live; it takes call_a's decision from the Redis inbox and, right
 * when it removes what it read, call_b's decision arrives; A is killed (SIGKILL) right after that
 * drain. The next activation, in this process, must apply call_b's decision: nothing is lost.
 */
describe('a process killed right after it drained the control inbox', () => {
  const url = inject('redisUrl');
  let bed: RedisTestBed | undefined;
  let worker: RuntimeWorker | undefined;

  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    await bed?.close();
    bed = undefined;
  });

  it('loses no decision: the next activation applies the one that arrived after the peek', async () => {
    const test = openTestBed(url, 'approvals');
    bed = test;
    const { prefix, redis, inbox: controls } = test.stores;
    worker = forkRuntimeWorker({
      url,
      prefix,
      scenario: 'approvals',
      leaseMs: 600,
      hook: 'pauseThenDieAtRemove',
    });
    await worker.ready;
    const live = worker.call({ op: 'run', runId: test.runId, threadId: test.threadId, onSuspend: 'wait' });
    live.catch(() => {});
    await vi.waitFor(async () => expect(await test.suspended()).toEqual(['call_a', 'call_b']), {
      timeout: 15_000,
      interval: 25,
    });
    await controls.put(test.runId, decisionControl(approveWith('call_a', 'for a')));
    // A applied call_a's decision, checkpointed it and is about to remove what it read
    await vi.waitFor(async () => expect(await redis.get(`${prefix}test:removing`)).toBe('ok_call_a'), {
      timeout: 5_000,
      interval: 10,
    });
    await controls.put(test.runId, decisionControl(approveWith('call_b', 'for b')));
    await redis.set(`${prefix}test:go`, '1');
    expect(await worker.exited).toBe('SIGKILL');
    expect((await controls.peek(test.runId)).map((control) => control.id)).toEqual(['ok_call_b']);
    expect(await test.executions('call_a')).toBe(0);

    const next = createAgentRuntime({
      agents: [scenarioAgent(redis, prefix, 'approvals')],
      stores: test.stores,
    });
    let result: Awaited<ReturnType<typeof next.runToCompletion>> | undefined;
    await vi.waitFor(
      async () => {
        // refused (run_busy) until the killed process's lease lapsed
        result = await next.resumeRun(test.runId).result.catch((error: unknown) => {
          if (AwakenError.hasCode(error, 'run_busy')) throw error;
          throw new Error(`unexpected: ${String(error)}`);
        });
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    for (const id of ['call_a', 'call_b', 'call_n']) expect(await test.executions(id)).toBe(1);
    const messages = await test.messages();
    expect(historyIsValid(messages)).toBe(true);
    const results = toolResults(messages);
    expect(results.get('call_a')?.content).toMatchObject({ approval: { note: 'for a' } });
    expect(results.get('call_b')?.content).toMatchObject({ approval: { note: 'for b' } });
    expect(await controls.peek(test.runId)).toEqual([]);
  }, 60_000);
});
