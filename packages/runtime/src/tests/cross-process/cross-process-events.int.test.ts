import type { AgentEvent } from '@awaken/contract';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { runInWorker } from '../../../test-support/fork-run-worker';
import {
  type RedisTestBed,
  activations,
  approveWith,
  openTestBed,
} from '../../../test-support/redis-harness';

/** Tails the run's Redis event log from seq 0 until the `run_finish` that ends the run. */
async function tailToEnd(test: RedisTestBed, signal: AbortSignal): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  let cursor = 0;
  while (!signal.aborted) {
    const events = await test.stores.eventLog.tail(test.runId, { afterSeq: cursor, waitMs: 1_000, signal });
    seen.push(...events);
    cursor = events.at(-1)?.seq ?? cursor;
    if (seen.some((event) => event.type === 'run_finish' && event.status === 'done')) break;
  }
  return seen;
}

describe('the run event log across processes on Redis', () => {
  const url = inject('redisUrl');
  let bed: RedisTestBed | undefined;

  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it('forms one gap-free seq sequence over three processes, and a live reader in this process gets every event once, in order', async () => {
    const test = openTestBed(url, 'approvals');
    bed = test;
    const stop = new AbortController();
    const reader = tailToEnd(test, stop.signal);
    try {
      await runInWorker(test.job({ action: 'run' }));
      await runInWorker(test.job({ action: 'resume', decisions: [approveWith('call_b', 'b')] }));
      const last = await runInWorker(test.job({ action: 'resume', decisions: [approveWith('call_a', 'a')] }));
      expect(last.result.status).toBe('done');
    } finally {
      setTimeout(() => stop.abort(), 5_000).unref();
    }
    const tailed = await reader;

    const stored = await test.events();
    expect(stored.map((event) => event.seq)).toEqual(stored.map((_, index) => index + 1));
    expect(stored.every((event) => event.runId === test.runId)).toBe(true);
    expect(tailed).toEqual(stored);
    expect(await test.stores.eventLog.isFinished(test.runId)).toBe(true);

    const groups = activations(stored);
    expect(groups).toHaveLength(3);
    expect(groups.map((group) => group[0])).toEqual(
      [false, true, true].map((resumed) => expect.objectContaining({ type: 'run_start', resumed })),
    );
    expect(groups.map((group) => group.at(-1))).toEqual(
      ['waiting', 'waiting', 'done'].map((status) => expect.objectContaining({ type: 'run_finish', status })),
    );
    for (const group of groups) {
      expect(group.filter((event) => event.type === 'run_start')).toHaveLength(1);
      expect(group.filter((event) => event.type === 'run_finish')).toHaveLength(1);
    }
    const resumedCalls = groups.map((group) =>
      group.flatMap((event) => (event.type === 'tool_call_resumed' ? [event.toolCallId] : [])),
    );
    expect(resumedCalls).toEqual([[], ['call_b'], ['call_a']]);
  }, 30_000);
});
