import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpFixture, createHttpFixture, startRun } from '../../../test-support/http-fixture';

// a fixture of its own: the counts below are the tenant's
let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

const WAIT = { timeout: 10_000, interval: 20 };

async function deadLetterOn(threadId: string): Promise<string> {
  const submitted = await fx.json('/v1/mailbox/submit', {
    body: { agentId: 'ops', threadId, input: 'permanent' },
  });
  const id: string = submitted.body.dispatchId;
  await vi.waitFor(async () => {
    expect((await fx.json(`/v1/mailbox/dispatches/${id}`)).body.status).toBe('dead_letter');
  }, WAIT);
  return id;
}

/**
 * `retry-all` is a bulk action: one dead letter that cannot be requeued now (its thread has a waiting
 * run) neither hides the ones requeued before it nor stops the ones after it; it is reported in
 * `failed` with why. Its id, reserved on the dead letter before the refusal, is not a requeue: the next
 * retry-all (once the thread is free) requeues it, instead of counting it as requeued before.
 */
describe('retry-all with a dead letter that cannot be requeued now', () => {
  it('requeues the others, reports the refused one in failed, and requeues it on the next retry-all', async () => {
    const blocked = await deadLetterOn('retry-blocked');
    const waiting = await startRun(fx, { agentId: 'ops', threadId: 'retry-blocked', input: 'approve:1' });
    expect((await fx.json(`/v1/runs/${waiting.runId}`)).body.status).toBe('waiting');
    const free = await deadLetterOn('retry-free');
    const more = await deadLetterOn('retry-free-2');

    const retried = await fx.json('/v1/mailbox/dead-letters/retry-all', { body: { expectedCount: 3 } });
    expect(retried.status).toBe(200);
    expect(retried.body.requeued.map((item: { requeuedFrom: string }) => item.requeuedFrom).sort()).toEqual(
      [free, more].sort(),
    );
    expect(retried.body.failed).toEqual([
      expect.objectContaining({
        dispatchId: blocked,
        code: 'conflict',
        message: expect.stringContaining('waiting run'),
      }),
    ]);
    expect(retried.body.alreadyRequeued).toBe(0);

    await fx.json(`/v1/runs/${waiting.runId}/cancel`, { body: {} });
    await vi.waitFor(
      async () => expect((await fx.json(`/v1/runs/${waiting.runId}`)).body.status).toBe('done'),
      WAIT,
    );
    // the two requeued runs fail again: two new dead letters
    await vi.waitFor(
      async () => expect((await fx.json('/v1/mailbox/counts')).body.counts.dead_letter).toBe(5),
      WAIT,
    );
    const again = await fx.json('/v1/mailbox/dead-letters/retry-all', { body: { expectedCount: 5 } });
    expect(again.status).toBe(200);
    expect(again.body.requeued.map((item: { requeuedFrom: string }) => item.requeuedFrom)).toContain(blocked);
    expect(again.body.failed).toEqual([]);
    expect(again.body.alreadyRequeued).toBe(2);
    const requeuedRunId = (await fx.json(`/v1/mailbox/dispatches/${blocked}`)).body.requeuedRunId;
    expect((await fx.json(`/v1/runs/${requeuedRunId}`)).status).toBe(200);
  });
});
