import { randomUUID } from 'node:crypto';
import { createRedisStores } from '@awaken/store-redis';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { TOKENS, type HttpFixture, createHttpFixture } from '../../../test-support/http-fixture';

const WAIT = { timeout: 10_000, interval: 20 };

/** Attacks on `POST /v1/mailbox/dead-letters/:id/requeue`: wrong targets and two processes at once. */
describe('requeue attacks (two service instances on one Redis)', () => {
  let one: HttpFixture;
  let two: HttpFixture;
  const stores: ReturnType<typeof createRedisStores>[] = [];
  beforeAll(async () => {
    const prefix = `requeue-attacks:${randomUUID()}:`;
    const make = () => {
      const made = createRedisStores({ redis: inject('redisUrl'), prefix });
      stores.push(made);
      return made;
    };
    one = await createHttpFixture({ stores: { acme: make() } });
    two = await createHttpFixture({ stores: { acme: make() } });
  });
  afterAll(async () => {
    await Promise.all([one.close(), two.close()]);
    await Promise.all(stores.map((made) => made.close()));
  });

  async function deadLetter(): Promise<{ threadId: string; dispatchId: string; runId: string }> {
    const submitted = await one.json('/v1/mailbox/submit', {
      body: { agentId: 'ops', input: `permanent #${randomUUID()}` },
    });
    expect(submitted.status).toBe(202);
    await vi.waitFor(async () => {
      const dispatch = await one.json(`/v1/mailbox/dispatches/${submitted.body.dispatchId}`);
      expect(dispatch.body.status).toBe('dead_letter');
    }, WAIT);
    return submitted.body;
  }

  const requeue = (fx: HttpFixture, dispatchId: string, token?: string) =>
    fx.json(`/v1/mailbox/dead-letters/${encodeURIComponent(dispatchId)}/requeue`, {
      method: 'POST',
      ...(token ? { token } : {}),
    });

  it('unknown ids answer 404, odd ids never 5xx, and another tenant cannot requeue (or see) a dead letter', async () => {
    expect((await requeue(one, 'no-such-dispatch')).status).toBe(404);
    for (const odd of ['日本', '🙂', 'a'.repeat(2_000), '..', '%00', ' ']) {
      const answer = await requeue(one, odd);
      expect(answer.status, odd).toBeGreaterThanOrEqual(400);
      expect(answer.status, odd).toBeLessThan(500);
    }
    const dead = await deadLetter();
    const foreign = await requeue(one, dead.dispatchId, TOKENS.globex);
    expect(foreign.status).toBe(404);
    const thread = await one.json(`/v1/threads/${dead.threadId}/dispatches`);
    expect(thread.body.items).toHaveLength(1);
  });

  it('a dispatch that is not a dead letter answers 409 and is not marked', async () => {
    const waiting = await one.json('/v1/mailbox/submit', { body: { agentId: 'ops', input: 'approve:1' } });
    await vi.waitFor(async () => {
      const dispatch = await one.json(`/v1/mailbox/dispatches/${waiting.body.dispatchId}`);
      expect(dispatch.body.status).toBe('acked');
    }, WAIT);
    const answer = await requeue(one, waiting.body.dispatchId);
    expect(answer.status).toBe(409);
    const dispatch = await one.json(`/v1/mailbox/dispatches/${waiting.body.dispatchId}`);
    expect(dispatch.body.requeuedRunId).toBeUndefined();
  });

  it('ten concurrent requeues through two service instances make one run, whose input runs once', async () => {
    const dead = await deadLetter();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => requeue(index % 2 ? two : one, dead.dispatchId)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(202));
    expect(new Set(answers.map((answer) => answer.body.runId)).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.body.dispatchId)).size).toBe(1);
    await vi.waitFor(async () => {
      const dispatches = await two.json(`/v1/threads/${dead.threadId}/dispatches`);
      expect(dispatches.body.items).toHaveLength(2);
      expect(dispatches.body.items.every((item: { status: string }) => item.status === 'dead_letter')).toBe(
        true,
      );
    }, WAIT);
    const runs = await one.json(`/v1/threads/${dead.threadId}/runs`);
    expect(runs.body.items ?? runs.body).toHaveLength(2);
  });

  it('a requeue refused by a waiting run on the thread is completed by the next one, under the same ids', async () => {
    const dead = await deadLetter();
    // a waiting run takes the thread
    const waiting = await one.json('/v1/mailbox/submit', {
      body: { agentId: 'ops', threadId: dead.threadId, input: 'approve:1' },
    });
    expect(waiting.status).toBe(202);
    await vi.waitFor(async () => {
      const active = await one.json(`/v1/threads/${dead.threadId}/active-run`);
      expect(active.body.activeRun?.kind).toBe('open');
    }, WAIT);
    const refused = await requeue(two, dead.dispatchId);
    expect(refused.status).toBe(409);
    await one.json(`/v1/runs/${waiting.body.runId}/cancel`, { method: 'POST', body: {} });
    const again = await requeue(one, dead.dispatchId);
    expect(again.status).toBe(202);
    const repeat = await requeue(two, dead.dispatchId);
    expect(repeat.body).toEqual(again.body);
  });
});
