import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpFixture, createHttpFixture } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

const WAIT = { timeout: 10_000, interval: 20 };

async function deadLetter(): Promise<{ runId: string; threadId: string; dispatchId: string }> {
  const submitted = await fx.json('/v1/mailbox/submit', { body: { agentId: 'ops', input: 'permanent' } });
  expect(submitted.status).toBe(202);
  await vi.waitFor(async () => {
    const dispatch = await fx.json(`/v1/mailbox/dispatches/${submitted.body.dispatchId}`);
    expect(dispatch.body.status).toBe('dead_letter');
  }, WAIT);
  return submitted.body;
}

describe('mailbox', () => {
  it('background submit: 202 with ids; any worker runs it to the end', async () => {
    const submitted = await fx.json('/v1/mailbox/submit', {
      body: { agentId: 'ops', input: 'plain', priority: 3 },
    });
    expect(submitted.status).toBe(202);
    await vi.waitFor(async () => {
      expect((await fx.json(`/v1/runs/${submitted.body.runId}`)).body.status).toBe('done');
    }, WAIT);
    const bad = await fx.json('/v1/mailbox/submit', {
      body: { agentId: 'ops', input: 'plain', priority: 999 },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain('priority');
  });

  it('gets a dispatch without its claim token; lists dispatches of a thread by status', async () => {
    const submitted = await fx.json('/v1/mailbox/submit', { body: { agentId: 'ops', input: 'plain' } });
    await vi.waitFor(async () => {
      expect((await fx.json(`/v1/mailbox/dispatches/${submitted.body.dispatchId}`)).body.status).toBe(
        'acked',
      );
    }, WAIT);
    const dispatch = await fx.json(`/v1/mailbox/dispatches/${submitted.body.dispatchId}`);
    expect(dispatch.body).toMatchObject({ runId: submitted.body.runId, threadId: submitted.body.threadId });
    expect(dispatch.body.claimToken).toBeUndefined();
    const acked = await fx.json(`/v1/threads/${submitted.body.threadId}/dispatches?status=acked`);
    expect(acked.body.items.map((item: { dispatchId: string }) => item.dispatchId)).toContain(
      submitted.body.dispatchId,
    );
    const queued = await fx.json(`/v1/threads/${submitted.body.threadId}/dispatches?status=queued`);
    expect(queued.body.items).toEqual([]);
    expect((await fx.json(`/v1/threads/${submitted.body.threadId}/dispatches?status=lost`)).status).toBe(422);
    expect((await fx.json('/v1/threads/missing/dispatches')).status).toBe(404);
    expect((await fx.json('/v1/mailbox/dispatches/missing')).status).toBe(404);
  });

  it('lists dead letters of every thread and of one thread; requeues one as a new run of the same input', async () => {
    const dead = await deadLetter();
    const all = await fx.json('/v1/mailbox/dead-letters');
    expect(all.body.items.map((item: { dispatchId: string }) => item.dispatchId)).toContain(dead.dispatchId);
    const ofThread = await fx.json(`/v1/mailbox/dead-letters?threadId=${dead.threadId}`);
    expect(ofThread.body.items).toHaveLength(1);
    expect((await fx.json('/v1/mailbox/dead-letters?threadId=missing')).status).toBe(404);
    const requeued = await fx.json(`/v1/mailbox/dead-letters/${dead.dispatchId}/requeue`, { method: 'POST' });
    expect(requeued.status).toBe(202);
    expect(requeued.body).toMatchObject({ threadId: dead.threadId, requeuedFrom: dead.dispatchId });
    expect(requeued.body.runId).not.toBe(dead.runId);
    await vi.waitFor(async () => {
      const dispatch = await fx.json(`/v1/mailbox/dispatches/${requeued.body.dispatchId}`);
      expect(dispatch.body.status).toBe('dead_letter');
    }, WAIT);
    expect(await fx.counters.get('model:permanent')).toBe(2);
  });

  it('requeue: 409 for a dispatch that is not a dead letter, 404 for an unknown one', async () => {
    const submitted = await fx.json('/v1/mailbox/submit', { body: { agentId: 'ops', input: 'plain' } });
    await vi.waitFor(async () => {
      expect((await fx.json(`/v1/mailbox/dispatches/${submitted.body.dispatchId}`)).body.status).toBe(
        'acked',
      );
    }, WAIT);
    const refused = await fx.json(`/v1/mailbox/dead-letters/${submitted.body.dispatchId}/requeue`, {
      method: 'POST',
    });
    expect(refused.status).toBe(409);
    expect((await fx.json('/v1/mailbox/dead-letters/missing/requeue', { method: 'POST' })).status).toBe(404);
  });

  it('purges terminal dispatches older than a time; 422 without olderThan', async () => {
    const dead = await deadLetter();
    const purged = await fx.json('/v1/mailbox/purge', { body: { olderThan: Date.now() + 60_000 } });
    expect(purged.status).toBe(200);
    expect(purged.body.purged).toBeGreaterThan(0);
    expect((await fx.json(`/v1/mailbox/dispatches/${dead.dispatchId}`)).status).toBe(404);
    const bad = await fx.json('/v1/mailbox/purge', { body: {} });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain('olderThan');
  });
});
