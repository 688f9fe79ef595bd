import { randomUUID } from 'node:crypto';
import { approve, readToolCallStates } from '@awaken/contract';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { type ServiceCluster, createRedisCluster } from '../../../test-support/cluster';
import { AGENT_ID } from '../../../test-support/scenario-agent';
import { WAIT, dispatchesOf, events, record, untilStatus } from '../../../test-support/suite-helpers';
import { FAST } from '../../../test-support/worker-config';

/**
 * An approval nobody answers, on Redis with real worker processes: every worker is killed (SIGKILL)
 * while the run waits, the expiry passes with no process alive, and a worker started afterwards moves
 * the run on, because the expiry was scheduled in the mailbox, not in a process's memory.
 */
describe('expiry survives every server process', () => {
  const url = inject('redisUrl');
  let cluster: ServiceCluster | undefined;
  afterEach(async () => {
    await cluster?.close();
    cluster = undefined;
  });

  it('a run nobody answers moves on after every process was restarted; a late answer is ticket_expired', async () => {
    const current = await createRedisCluster(url, 1, FAST);
    cluster = current;
    const runId = `expire-${randomUUID()}`;
    const threadId = `thread-${runId}`;
    const input = `expire:1500 #${runId}`;
    await current.api.submit({ agentId: AGENT_ID, runId, threadId, input, mode: 'background' });
    const waiting = await untilStatus(current.stores, runId, ['waiting']);
    const [call] = readToolCallStates(waiting);
    const expiresAt = call?.ticket?.expiresAt;
    if (expiresAt === undefined) throw new Error('the ticket has no expiresAt');
    // the expiry is a queued dispatch in the mailbox, available at expiresAt
    await vi.waitFor(async () => {
      const queued = (await dispatchesOf(current.stores, threadId, runId)).filter(
        (d) => d.status === 'queued',
      );
      expect(queued.map((dispatch) => dispatch.availableAt)).toEqual([expiresAt]);
    }, WAIT);
    for (const worker of current.workers) await worker.kill();
    expect(Date.now()).toBeLessThan(expiresAt);

    // the expiry passes with no worker alive: nothing moves, and an answer now comes too late
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(expiresAt), WAIT);
    expect((await record(current.stores, runId)).status).toBe('waiting');
    const late = await current.api.commands.decide({ runId }, [approve(call!.ticket!)]);
    expect(late.receipts[0]).toMatchObject({ status: 'rejected', reason: 'ticket_expired' });

    // a fresh process claims the scheduled dispatch and the run goes on without the call
    await current.addWorker();
    const done = await untilStatus(current.stores, runId, ['done']);
    expect(done).toMatchObject({ termination: { type: 'natural_end' }, response: 'done after 1 results' });
    expect(await current.counters.get(`exec:${runId}:approve_me_0_0`)).toBe(0);
    const expired = (await events(current.stores, runId)).find((event) => event.type === 'tool_call_done');
    expect(expired).toMatchObject({ toolCallId: 'approve_me_0_0', status: 'expired' });
  }, 60_000);
});
