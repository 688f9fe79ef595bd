import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { type ServiceCluster, createRedisCluster } from '../../../test-support/cluster';
import { AGENT_ID } from '../../../test-support/scenario-agent';
import {
  WAIT,
  dispatchesOf,
  events,
  record,
  toolCounts,
  untilStatus,
} from '../../../test-support/suite-helpers';
import { FAST } from '../../../test-support/worker-config';

/** Worker processes killed with SIGKILL while they execute a run, on one real Redis. */
describe('mailbox service: crashed worker processes', () => {
  const url = inject('redisUrl');
  let cluster: ServiceCluster | undefined;
  afterEach(async () => {
    await cluster?.close();
    cluster = undefined;
  });

  it('reclaims a run whose process was killed mid-tool and finishes it from its last checkpoint elsewhere', async () => {
    const current = await createRedisCluster(url, 2, FAST);
    cluster = current;
    const runId = `crash-${randomUUID()}`;
    const threadId = `thread-${runId}`;
    const input = `plain then slow:60000 #${runId}`;
    await current.api.submit({ agentId: AGENT_ID, runId, threadId, input, mode: 'background' });
    await vi.waitFor(async () => expect(await current.counters.get(`slow-started:${runId}`)).toBe(1), WAIT);
    const [claimed] = await dispatchesOf(current.stores, threadId, runId);
    const victim = current.workers.find((worker) => worker.workerId === claimed?.claimedBy);
    if (!victim) throw new Error(`no worker ${claimed?.claimedBy}`);
    const seqBefore = (await events(current.stores, runId)).length;
    await victim.kill();

    const done = await untilStatus(current.stores, runId, ['done']);
    expect(done).toMatchObject({ termination: { type: 'natural_end' }, response: 'done after 2 results' });
    expect(await toolCounts(current, runId, 'plain_0_0')).toEqual({ executions: 1, completions: 1 });
    expect(await toolCounts(current, runId, 'slow_1_0')).toEqual({ executions: 2, completions: 1 });
    // turn 0, turn 1, the final answer: no committed turn was asked again
    expect(await current.counters.get(`model:${input}`)).toBe(3);
    await vi.waitFor(async () => {
      const [dispatch] = await dispatchesOf(current.stores, threadId, runId);
      expect(dispatch).toMatchObject({ status: 'acked', attemptCount: 1 });
      expect(dispatch?.claimedBy).not.toBe(victim.workerId);
    }, WAIT);
    const log = await events(current.stores, runId);
    expect(log.map((event) => event.seq)).toEqual(log.map((_, index) => index + 1));
    expect(log.length).toBeGreaterThan(seqBefore);
  }, 60_000);

  it('dead-letters a run that crashed its process maxAttempts times, and its record says why', async () => {
    const current = await createRedisCluster(url, 0, { ...FAST, maxAttempts: 2 });
    cluster = current;
    const runId = `crash-loop-${randomUUID()}`;
    const threadId = `thread-${runId}`;
    await current.api.submit({
      agentId: AGENT_ID,
      runId,
      threadId,
      input: `crash #${runId}`,
      mode: 'background',
    });
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const worker = await current.addWorker();
      expect(await worker.exited).toBe('SIGKILL');
    }
    const done = await untilStatus(current.stores, runId, ['done']);
    expect(done.termination).toMatchObject({ type: 'error', code: 'dead_lettered' });
    expect(done.termination?.type === 'error' && done.termination.message).toMatch(
      /dead-lettered after 2 attempts \(the process executing it stopped each time\)/,
    );
    const [dispatch] = await dispatchesOf(current.stores, threadId, runId);
    expect(dispatch).toMatchObject({ status: 'dead_letter', attemptCount: 2 });
    expect(await current.counters.get(`exec:${runId}:crash_0_0`)).toBe(2);
    expect((await record(current.stores, runId)).status).toBe('done');
  }, 60_000);
});
