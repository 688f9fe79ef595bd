import { randomUUID } from 'node:crypto';
import { resolveIndeterminate } from '@awaken/contract';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type ServiceCluster, createRedisCluster } from '../../../test-support/cluster';
import { AGENT_ID } from '../../../test-support/scenario-agent';
import { untilStatus } from '../../../test-support/suite-helpers';
import { FAST } from '../../../test-support/worker-config';

/** A worker process killed inside a tool that must never run twice, on Redis with real processes. */
describe('mailbox service: a crash inside a non-idempotent tool', () => {
  const url = inject('redisUrl');
  let cluster: ServiceCluster | undefined;
  afterEach(async () => {
    await cluster?.close();
    cluster = undefined;
  });

  it('the run taken over elsewhere asks (indeterminate) instead of running it again; "result" finishes it', async () => {
    const current = await createRedisCluster(url, 0, FAST);
    cluster = current;
    const runId = `pay-${randomUUID()}`;
    const threadId = `thread-${runId}`;
    await current.api.submit({
      agentId: AGENT_ID,
      runId,
      threadId,
      input: `payonce #${runId}`,
      mode: 'background',
    });
    const victim = await current.addWorker();
    expect(await victim.exited).toBe('SIGKILL');
    expect(await current.counters.get(`exec:${runId}:pay_once_0_0`)).toBe(1);

    await current.addWorker();
    const waiting = await untilStatus(current.stores, runId, ['waiting']);
    const ticket = waiting.waiting?.tickets[0];
    expect(ticket).toMatchObject({ toolCallId: 'pay_once_0_0', action: 'indeterminate' });
    expect(await current.counters.get(`exec:${runId}:pay_once_0_0`)).toBe(1);

    const decided = await current.api.commands.decide({ runId }, [
      resolveIndeterminate(ticket!, { outcome: 'result', result: { paid: true } }),
    ]);
    expect(decided.receipts[0]?.status).toBe('accepted');
    const done = await untilStatus(current.stores, runId, ['done']);
    expect(done).toMatchObject({ termination: { type: 'natural_end' }, response: 'done after 1 results' });
    expect(await current.counters.get(`exec:${runId}:pay_once_0_0`)).toBe(1);
    // the value the human gave is the tool's result the model read
    const messages = (await current.stores.threadRuns.readMessages(threadId)).map((entry) => entry.message);
    expect(messages).toContainEqual(
      expect.objectContaining({
        role: 'tool',
        toolCallId: 'pay_once_0_0',
        outcome: 'succeeded',
        content: { paid: true },
      }),
    );
  }, 60_000);
});
