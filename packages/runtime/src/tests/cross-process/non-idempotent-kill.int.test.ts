import { type IndeterminateAnswer, resolveIndeterminate } from '@awaken/contract';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import { forkRunWorker } from '../../../test-support/fork-run-worker';
import { historyIsValid } from '../../../test-support/harness';
import { scenarioAgent, testKeys } from '../../../test-support/redis-agents';
import { type RedisTestBed, openTestBed, toolResults } from '../../../test-support/redis-harness';
import type { RunResult } from '../../types';

/**
 * The `once` scenario: the model calls `pay`, a tool declared `idempotent: false`. Process A is
 * killed with SIGKILL inside its body, before any result is stored. The test process resumes the run
 * from Redis alone: the call is never run again by itself but suspends with an `indeterminate`
 * ticket, and each answer leads where it should.
 */
describe('kill -9 inside a tool that must never run twice', () => {
  const url = inject('redisUrl');
  let bed: RedisTestBed | undefined;

  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  async function killedInsidePay() {
    const test = openTestBed(url, 'once');
    bed = test;
    const a = forkRunWorker(test.job({ action: 'run', slowMs: 60_000, leaseMs: 500 }));
    try {
      await vi.waitFor(
        async () => expect(await test.stores.redis.get(testKeys(test.stores.prefix).slowStarted)).toBe('1'),
        { timeout: 15_000, interval: 20 },
      );
    } finally {
      a.child.kill('SIGKILL');
    }
    expect(await a.exited).toBe('SIGKILL');
    expect(await test.executions('call_p')).toBe(1);
    expect(await test.completions('call_p')).toBe(0);
    const runtime = createAgentRuntime({
      agents: [scenarioAgent(test.stores.redis, test.stores.prefix, 'once', { slowMs: 1 })],
      stores: test.stores,
      runLease: { leaseMs: 500 },
    });
    // A's run lease lapses (a killed process renews nothing); until then the run is busy
    const resume = (answer?: IndeterminateAnswer, ticketId?: string): Promise<RunResult> =>
      vi.waitFor(
        () => {
          const decisions = answer && ticketId ? [resolveIndeterminate(ticketId, answer)] : [];
          return runtime.resumeRun(test.runId, { decisions }).result;
        },
        { timeout: 10_000, interval: 100 },
      );
    // the resume never pays again by itself: it asks whether the payment happened
    const waiting = await resume();
    expect(waiting.status).toBe('waiting');
    const [ticket] = waiting.waiting!.tickets;
    expect(ticket).toMatchObject({ toolCallId: 'call_p', action: 'indeterminate', toolName: 'pay' });
    expect(ticket?.responseSchema).toBeDefined();
    expect(await test.executions('call_p')).toBe(1);
    const suspended = (await test.events()).filter((event) => event.type === 'tool_call_suspended');
    expect(suspended).toHaveLength(1);
    return { test, waiting, resume };
  }

  it('"fail": the call fails with the reason, the tool body ran exactly once', async () => {
    const { test, waiting, resume } = await killedInsidePay();
    const done = await resume(
      { outcome: 'fail', reason: 'the bank has no record' },
      waiting.waiting!.tickets[0]!.ticketId,
    );
    expect(done).toMatchObject({ status: 'done', response: 'done after 1 results' });
    expect(await test.executions('call_p')).toBe(1);
    const result = toolResults(await test.messages()).get('call_p');
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(JSON.stringify(result?.content)).toContain('the bank has no record');
  });

  it('"result": the value given becomes the tool result, the tool body ran exactly once', async () => {
    const { test, waiting, resume } = await killedInsidePay();
    const receipt = { paid: true, reference: 'bank-42' };
    const done = await resume({ outcome: 'result', result: receipt }, waiting.waiting!.tickets[0]!.ticketId);
    expect(done.status).toBe('done');
    expect(await test.executions('call_p')).toBe(1);
    const messages = await test.messages();
    expect(toolResults(messages).get('call_p')).toMatchObject({ outcome: 'succeeded', content: receipt });
    expect(historyIsValid(messages)).toBe(true);
  });

  it('"retry": the tool runs once more, to completion', async () => {
    const { test, waiting, resume } = await killedInsidePay();
    const done = await resume({ outcome: 'retry' }, waiting.waiting!.tickets[0]!.ticketId);
    expect(done.status).toBe('done');
    expect(await test.executions('call_p')).toBe(2);
    expect(await test.completions('call_p')).toBe(1);
    expect(toolResults(await test.messages()).get('call_p')).toMatchObject({ outcome: 'succeeded' });
  });
});
