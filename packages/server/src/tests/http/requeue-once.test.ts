import { randomUUID } from 'node:crypto';
import { createRedisStores } from '@awaken/store-redis';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type HttpFixture, createHttpFixture } from '../../../test-support/http-fixture';

const WAIT = { timeout: 10_000, interval: 20 };

// Finding 9: a double click, a retried request or two processes at once requeued one dead letter
// twice, and its input ran twice. Every requeue of one dead letter must answer the same run.
describe.each(['memory', 'redis'] as const)('requeue of a dead letter on %s stores', (backend) => {
  let fx: HttpFixture;
  let redis: ReturnType<typeof createRedisStores> | undefined;
  beforeAll(async () => {
    if (backend === 'redis') {
      redis = createRedisStores({ redis: inject('redisUrl'), prefix: `requeue-once:${randomUUID()}:` });
    }
    fx = await createHttpFixture(redis ? { stores: { acme: redis } } : {});
  });
  afterAll(async () => {
    await fx.close();
    await redis?.close();
  });

  async function deadLetter(): Promise<{ threadId: string; dispatchId: string }> {
    const submitted = await fx.json('/v1/mailbox/submit', { body: { agentId: 'ops', input: 'permanent' } });
    await vi.waitFor(async () => {
      const dispatch = await fx.json(`/v1/mailbox/dispatches/${submitted.body.dispatchId}`);
      expect(dispatch.body.status).toBe('dead_letter');
    }, WAIT);
    return submitted.body;
  }

  const requeue = (dispatchId: string) =>
    fx.json(`/v1/mailbox/dead-letters/${dispatchId}/requeue`, { method: 'POST' });

  it('two concurrent and two later requeues make one new run; its input runs once', async () => {
    const before = (await fx.counters.get('model:permanent')) ?? 0;
    const dead = await deadLetter();
    const answers = await Promise.all([requeue(dead.dispatchId), requeue(dead.dispatchId)]);
    answers.push(await requeue(dead.dispatchId));
    answers.push(await requeue(dead.dispatchId));
    for (const answer of answers) expect(answer.status).toBe(202);
    const runIds = new Set(answers.map((answer) => answer.body.runId));
    const dispatchIds = new Set(answers.map((answer) => answer.body.dispatchId));
    expect(runIds.size).toBe(1);
    expect(dispatchIds.size).toBe(1);
    const [requeued] = answers;
    await vi.waitFor(async () => {
      const dispatch = await fx.json(`/v1/mailbox/dispatches/${requeued?.body.dispatchId}`);
      expect(dispatch.body.status).toBe('dead_letter');
    }, WAIT);
    // one more requeue after the new run ended still answers it, and starts nothing
    expect((await requeue(dead.dispatchId)).body.runId).toBe(requeued?.body.runId);
    const dispatches = await fx.json(`/v1/threads/${dead.threadId}/dispatches`);
    expect(dispatches.body.items).toHaveLength(2);
    expect(await fx.counters.get('model:permanent')).toBe(before + 2);
  });
});
