import { afterEach, describe, expect, inject, it } from 'vitest';
import { runInWorker } from '../../../test-support/fork-run-worker';
import { historyIsValid } from '../../../test-support/harness';
import {
  type RedisTestBed,
  approveWith,
  openTestBed,
  rejectWith,
  toolResults,
} from '../../../test-support/redis-harness';

/**
 * Each run below is driven by separate Node processes that share nothing but Redis (threads/runs,
 * event log, decision inbox): A starts the run and exits when it suspends, B and C each resume it
 * with one decision and exit. Tool executions and model calls are counted in Redis.
 */
describe('cold resume across processes on Redis', () => {
  const url = inject('redisUrl');
  let bed: RedisTestBed | undefined;

  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it.each([
    { first: 'call_b', second: 'call_a' },
    { first: 'call_a', second: 'call_b' },
  ])(
    'resumes two parallel suspended calls of one tool in separate processes ($first, then $second): each decision reaches its own call, every call runs once',
    async ({ first, second }) => {
      const test = openTestBed(url, 'approvals');
      bed = test;

      const a = await runInWorker(test.job({ action: 'run' }));
      expect(a.result.status).toBe('waiting');
      expect(a.result.waiting?.tickets.map((ticket) => ticket.toolCallId)).toEqual(['call_a', 'call_b']);
      expect(await test.executions('call_n')).toBe(1);
      expect([await test.executions('call_a'), await test.executions('call_b')]).toEqual([0, 0]);

      const b = await runInWorker(
        test.job({ action: 'resume', decisions: [approveWith(first, `note for ${first}`)] }),
      );
      expect(b.receipts.map((receipt) => receipt.status)).toEqual(['accepted']);
      expect(b.result.status).toBe('waiting');
      expect(b.result.waiting?.tickets.map((ticket) => ticket.toolCallId)).toEqual([second]);
      expect(await test.suspended()).toEqual([second]);
      expect(await test.executions(first)).toBe(1);
      expect(await test.executions(second)).toBe(0);
      expect(await test.modelCalls()).toBe(1);

      const c = await runInWorker(
        test.job({ action: 'resume', decisions: [approveWith(second, `note for ${second}`)] }),
      );
      expect(c.result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
      expect(c.result.response).toBe('done after 3 results');

      for (const id of ['call_a', 'call_b', 'call_n']) expect(await test.executions(id)).toBe(1);
      expect(await test.modelCalls()).toBe(2);
      const messages = await test.messages();
      expect(historyIsValid(messages)).toBe(true);
      const results = toolResults(messages);
      expect([...results.keys()].sort()).toEqual(['call_a', 'call_b', 'call_n']);
      expect(results.get('call_a')?.content).toEqual({
        tool: 'approve_me',
        args: { target: 'a' },
        approval: { note: 'note for call_a' },
      });
      expect(results.get('call_b')?.content).toEqual({
        tool: 'approve_me',
        args: { target: 'b' },
        approval: { note: 'note for call_b' },
      });
      expect(results.get('call_n')?.content).toEqual({
        tool: 'plain',
        args: { target: 'n' },
        approval: null,
      });
      const requests = await test.modelRequests();
      expect(requests).toHaveLength(2);
      expect(historyIsValid(requests[1] ?? [])).toBe(true);
      expect(toolResults(requests[1] ?? []).size).toBe(3);
    },
    30_000,
  );

  it('never runs a call rejected in one process; the model of a later process reads the refusal', async () => {
    const test = openTestBed(url, 'approvals');
    bed = test;
    await runInWorker(test.job({ action: 'run' }));

    const b = await runInWorker(
      test.job({ action: 'resume', decisions: [rejectWith('call_a', 'the operator said no')] }),
    );
    expect(b.receipts.map((receipt) => receipt.status)).toEqual(['accepted']);
    expect(b.result.status).toBe('waiting');
    expect(await test.suspended()).toEqual(['call_b']);

    const c = await runInWorker(test.job({ action: 'resume', decisions: [approveWith('call_b', 'yes')] }));
    expect(c.result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });

    expect(await test.executions('call_a')).toBe(0);
    expect(await test.executions('call_b')).toBe(1);
    expect(await test.executions('call_n')).toBe(1);
    expect(await test.modelCalls()).toBe(2);
    const refusal = {
      role: 'tool',
      toolCallId: 'call_a',
      toolName: 'approve_me',
      outcome: 'cancelled',
      content: { cancelled: true, reason: 'the operator said no' },
    };
    expect(toolResults(await test.messages()).get('call_a')).toEqual(refusal);
    const [, finalRequest = []] = await test.modelRequests();
    expect(historyIsValid(finalRequest)).toBe(true);
    expect(toolResults(finalRequest).get('call_a')).toEqual(refusal);
  }, 30_000);
});
