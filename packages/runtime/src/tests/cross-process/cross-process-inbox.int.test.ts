import { type AgentEvent, answer, decisionControl } from '@awaken/contract';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { forkRunWorker } from '../../../test-support/fork-run-worker';
import {
  type RedisTestBed,
  approveWith,
  openTestBed,
  toolResults,
} from '../../../test-support/redis-harness';

const rejections = (events: readonly AgentEvent[]) =>
  events.filter((event) => event.type === 'error' && event.code === 'decision_rejected');

/**
 * Process A keeps a waiting run live (`onSuspend: 'wait'`); this process, playing a second server
 * that received the decisions, writes them only to the Redis decision inbox.
 */
describe('the decision inbox across processes on Redis', () => {
  const url = inject('redisUrl');
  let bed: RedisTestBed | undefined;

  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it('wakes a live waiting run in another process, which applies each decision (by call or ticket) to its own call only', async () => {
    const test = openTestBed(url, 'approvals');
    bed = test;
    const inbox = test.stores.inbox;
    const worker = forkRunWorker(test.job({ action: 'run', onSuspend: 'wait' }));
    try {
      await vi.waitFor(async () => expect(await test.suspended()).toEqual(['call_a', 'call_b']), {
        timeout: 15_000,
        interval: 50,
      });
      // the suspension's events precede the checkpoint that stores the run as waiting
      const waiting = await vi.waitFor(
        async () => {
          const record = await test.run();
          expect(record.status).toBe('waiting');
          return record;
        },
        { timeout: 5_000, interval: 20 },
      );
      const ticketB = waiting.waiting?.tickets.find((ticket) => ticket.toolCallId === 'call_b')?.ticketId;
      expect(ticketB).toBeDefined();

      // A decision naming a call that is not suspended (call_n already succeeded) is not redirected.
      expect(await inbox.put(test.runId, decisionControl(approveWith('call_n', 'stray')))).toBe('stored');
      await vi.waitFor(async () => expect(rejections(await test.events())).toHaveLength(1), {
        timeout: 5_000,
        interval: 20,
      });
      expect(await test.suspended()).toEqual(['call_a', 'call_b']);

      expect(await inbox.put(test.runId, decisionControl(approveWith('call_a', 'for a')))).toBe('stored');
      await vi.waitFor(async () => expect(await test.suspended()).toEqual(['call_b']), {
        timeout: 5_000,
        interval: 20,
      });
      // the call leaves the suspended list when it resumes; its body runs right after
      await vi.waitFor(async () => expect(await test.executions('call_a')).toBe(1), {
        timeout: 5_000,
        interval: 20,
      });

      // A second, different decision for call_a (no longer suspended) must not reach call_b.
      expect(await inbox.put(test.runId, decisionControl(approveWith('call_a', 'stale', 'late_a')))).toBe(
        'stored',
      );
      await vi.waitFor(async () => expect(rejections(await test.events())).toHaveLength(2), {
        timeout: 5_000,
        interval: 20,
      });
      expect(await test.suspended()).toEqual(['call_b']);
      expect(await test.executions('call_b')).toBe(0);

      // A decision naming only its ticket (a protocol's approval id) reaches its call.
      const byTicket = answer(ticketB ?? '', { note: 'for b' }, { decisionId: 'ok_call_b' });
      expect(await inbox.put(test.runId, decisionControl(byTicket))).toBe('stored');
      const report = await worker.done;
      expect(report.result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    } finally {
      if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
    }

    const record = await test.run();
    expect(record.status).toBe('done');
    const events = await test.events();
    expect(events.at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });
    expect(await test.stores.eventLog.isFinished(test.runId)).toBe(true);
    expect(await inbox.peek(test.runId)).toEqual([]);
    for (const id of ['call_a', 'call_b', 'call_n']) expect(await test.executions(id)).toBe(1);
    expect(await test.modelCalls()).toBe(2);
    const results = toolResults(await test.messages());
    expect(results.get('call_a')?.content).toMatchObject({
      args: { target: 'a' },
      approval: { note: 'for a' },
    });
    expect(results.get('call_b')?.content).toMatchObject({
      args: { target: 'b' },
      approval: { note: 'for b' },
    });
  }, 30_000);
});
