import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  a2aClient,
  answerText,
  collect,
  lastStatus,
  sendParams,
  taskJson,
  ticketsOf,
} from '../../../test-support/a2a-client';
import { type AppProcess, startAppProcess } from '../../../test-support/app-process';

let env: Record<string, string>;
let a: AppProcess;
let b: AppProcess;
beforeAll(async () => {
  env = {
    REDIS_URL: inject('redisUrl'),
    AWAKEN_REDIS_PREFIX: `e2e-a2a-${randomUUID().slice(0, 8)}`,
    AWAKEN_DEMO_DELAY_MS: '10',
    AWAKEN_LEASE_MS: '3000',
    AWAKEN_SHUTDOWN_GRACE_MS: '500',
  };
  [a, b] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

const counted = (n: number) => `${Array.from({ length: n }, (_, index) => index + 1).join(' ')}.`;

describe('A2A tasks on two server processes sharing one Redis', () => {
  it('a dropped stream is resumed with SubscribeToTask on the other process: nothing lost or repeated', async () => {
    const onA = await a2aClient(a.url);
    const dropped = new AbortController();
    const seen: Array<Record<string, any>> = [];
    const stream = onA.sendMessageStream(sendParams([{ text: 'count to 150' }]), { signal: dropped.signal });
    await expect(
      (async () => {
        for await (const event of collectLive(stream)) {
          seen.push(event);
          if (seen.filter((item) => item.artifactUpdate).length === 5) dropped.abort();
        }
      })(),
    ).rejects.toThrow();
    const task = seen[0]?.task;
    expect(answerText(seen).length).toBeGreaterThan(0);
    expect(answerText(seen)).not.toBe(counted(150));

    const onB = await a2aClient(b.url);
    const resumed = await collect(onB.resubscribeTask({ tenant: '', id: task.id }));
    expect(resumed[0]?.task).toMatchObject({ id: task.id, status: { state: 'TASK_STATE_WORKING' } });
    // the snapshot holds the answer so far; the appends after it complete it exactly once
    expect(answerText(resumed)).toBe(counted(150));
    expect(lastStatus(resumed)?.state).toBe('TASK_STATE_COMPLETED');
    await expect(collect(onB.resubscribeTask({ tenant: '', id: task.id }))).rejects.toThrow(/terminal/);
  });

  it('the server restarts while a task waits; another process continues the same task', async () => {
    const onA = await a2aClient(a.url);
    const asked = taskJson(
      (await onA.sendMessage(sendParams([{ text: 'delete /tmp/restart.txt' }]))) as never,
    );
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    await a.stop();
    a = await startAppProcess(env);

    const onB = await a2aClient(b.url);
    const waiting = taskJson(await onB.getTask({ tenant: '', id: asked.id }));
    expect(ticketsOf(waiting)).toEqual(ticketsOf(asked));
    // the waiting task, subscribed to: its snapshot, then the stream closes (it is interrupted)
    const snapshot = await collect(onB.resubscribeTask({ tenant: '', id: asked.id }));
    expect(snapshot).toHaveLength(1);
    expect(snapshot[0]?.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');

    const onRestarted = await a2aClient(a.url);
    const [ticket] = ticketsOf(asked);
    const answer = { approved: true, approvalId: ticket?.approvalId, toolCallId: ticket?.toolCallId };
    const done = await collect(
      onRestarted.sendMessageStream(
        sendParams([{ data: answer }], { taskId: asked.id, contextId: asked.contextId }),
      ),
    );
    expect(done[0]?.task.id).toBe(asked.id);
    expect(lastStatus(done)?.state).toBe('TASK_STATE_COMPLETED');
    expect(answerText(done)).toBe('I will delete /tmp/restart.txt. Done: I deleted /tmp/restart.txt.');
  });
});

/** The stream's events in ProtoJSON, yielded as they arrive. */
async function* collectLive(stream: AsyncIterable<unknown>) {
  const { StreamResponse } = await import('@a2a-js/sdk');
  for await (const event of stream) yield StreamResponse.toJSON(event as never) as Record<string, any>;
}
