import { answer } from '@awaken/contract';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { forkRunWorker } from '../../../test-support/fork-run-worker';
import { scenarioAgent } from '../../../test-support/redis-agents';
import { type RedisTestBed, approveWith, openTestBed } from '../../../test-support/redis-harness';
import { createAgentRuntime } from '../../create-agent-runtime';

/**
 * Process A keeps a waiting run live (`onSuspend: 'wait'`); this process, standing for another
 * server replica that received the user's clicks, has only the run id and the ids the client sent.
 */
describe('runtime.decide across processes on Redis', () => {
  const url = inject('redisUrl');
  let bed: RedisTestBed | undefined;

  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it('queues decisions for the run live in another process, which applies each to its own call', async () => {
    const test = openTestBed(url, 'approvals');
    bed = test;
    const worker = forkRunWorker(test.job({ action: 'run', onSuspend: 'wait' }));
    try {
      await vi.waitFor(async () => expect(await test.suspended()).toEqual(['call_a', 'call_b']), {
        timeout: 15_000,
        interval: 50,
      });
      const here = createAgentRuntime({
        agents: [scenarioAgent(test.stores.redis, test.stores.prefix, 'approvals')],
        stores: test.stores,
      });
      // the record lists its tickets once the round ends: a checkpoint inside the round (a call
      // suspended while `plain` still ran) stores the calls suspended but the run `running`
      const ticketB = await vi.waitFor(
        async () => {
          const waiting = (await test.run()).waiting;
          const ticket = waiting?.tickets.find((candidate) => candidate.toolCallId === 'call_b');
          expect(ticket).toBeDefined();
          return ticket as NonNullable<typeof ticket>;
        },
        { timeout: 5_000, interval: 20 },
      );
      const first = await here.decide(test.runId, approveWith('call_a', 'for a'));
      expect(first).toMatchObject({
        delivery: 'queued',
        receipts: [{ toolCallId: 'call_a', status: 'accepted' }],
      });
      // a decision for a call that is not suspended is refused here, before it reaches the inbox
      const stray = await here.decide(test.runId, approveWith('call_n', 'stray'));
      expect(stray.receipts).toEqual([
        expect.objectContaining({ status: 'rejected', reason: 'not_suspended' }),
      ]);
      await vi.waitFor(async () => expect(await test.suspended()).toEqual(['call_b']), {
        timeout: 5_000,
        interval: 20,
      });
      const second = await here.decide(test.runId, [
        answer(ticketB.ticketId, { note: 'for b' }, { decisionId: 'ok_b' }),
      ]);
      expect(second.receipts).toEqual([
        expect.objectContaining({ toolCallId: 'call_b', status: 'accepted' }),
      ]);
      const report = await worker.done;
      expect(report.result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    } finally {
      if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
    }
    for (const id of ['call_a', 'call_b', 'call_n']) expect(await test.executions(id)).toBe(1);
    expect(await test.stores.inbox.peek(test.runId)).toEqual([]);
  }, 30_000);
});
