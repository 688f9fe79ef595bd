import { decisionControl } from '@awaken/contract';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { forkRunWorker, runInWorker } from '../../../test-support/fork-run-worker';
import { historyIsValid } from '../../../test-support/harness';
import { testKeys } from '../../../test-support/redis-agents';
import {
  type RedisTestBed,
  activations,
  approveWith,
  openTestBed,
  toolResults,
} from '../../../test-support/redis-harness';

/**
 * The `crash` scenario: one assistant turn asks for `plain` (call_1) then the approval-gated `slow`
 * (call_2), sequential executor. Process A runs it live (`onSuspend: 'wait'`): call_1 runs and its
 * result is checkpointed while call_2 waits; the approval arrives through the Redis inbox; A is
 * killed with SIGKILL while call_2 executes. A fresh process B resumes from Redis alone once A's
 * lease lapsed.
 */
describe('a process killed mid-run, resumed by a fresh process on Redis', () => {
  const url = inject('redisUrl');
  let bed: RedisTestBed | undefined;

  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it('does not re-run the checkpointed call or re-ask the model, and runs the uncommitted call again', async () => {
    const test = openTestBed(url, 'crash');
    bed = test;
    const a = forkRunWorker(test.job({ action: 'run', onSuspend: 'wait', slowMs: 60_000, leaseMs: 1_000 }));
    try {
      await vi.waitFor(async () => expect(await test.suspended()).toEqual(['call_2']), {
        timeout: 15_000,
        interval: 50,
      });
      expect(toolResults(await test.messages()).has('call_1')).toBe(true);
      expect(await test.stores.inbox.put(test.runId, decisionControl(approveWith('call_2', 'go slow')))).toBe(
        'stored',
      );
      await vi.waitFor(
        async () => expect(await test.stores.redis.get(testKeys(test.stores.prefix).slowStarted)).toBe('1'),
        { timeout: 5_000, interval: 10 },
      );
    } finally {
      a.child.kill('SIGKILL');
    }
    expect(await a.exited).toBe('SIGKILL');
    await expect(a.done).rejects.toThrow(/before reporting/);
    expect(await test.completions('call_2')).toBe(0);
    const eventsBefore = await test.events();

    // B takes the run over once A's lease lapsed (a killed process renews nothing)
    const b = await runInWorker(test.job({ action: 'resume', slowMs: 10, retryBusyMs: 10_000 }));
    expect(b.result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    expect(b.result.response).toBe('done after 2 results');

    expect(await test.executions('call_1')).toBe(1);
    expect(await test.executions('call_2')).toBe(2);
    expect(await test.completions('call_2')).toBe(1);
    expect(await test.modelCalls()).toBe(2);
    const [first = [], second = []] = await test.modelRequests();
    expect(first.at(-1)).toMatchObject({ role: 'user' });
    expect(toolResults(second).size).toBe(2);

    const messages = await test.messages();
    expect(historyIsValid(messages)).toBe(true);
    expect(messages.filter((message) => message.role === 'assistant')).toHaveLength(2);
    const results = toolResults(messages);
    expect(results.get('call_1')?.content).toEqual({
      tool: 'plain',
      args: { target: 'first' },
      approval: null,
    });
    expect(results.get('call_2')?.content).toEqual({
      tool: 'slow',
      args: { target: 'second' },
      approval: { note: 'go slow' },
    });

    const events = await test.events();
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events.slice(0, eventsBefore.length)).toEqual(eventsBefore);
    const resumedByB = activations(events.slice(eventsBefore.length));
    expect(resumedByB).toHaveLength(1);
    expect(resumedByB[0]?.[0]).toMatchObject({ type: 'run_start', resumed: true });
    expect(resumedByB[0]?.at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });
  }, 30_000);
});
