import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpFixture, createHttpFixture } from '../../../test-support/http-fixture';

// a fixture of its own: the counts below are the tenant's, so no other test may add dispatches
let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

const WAIT = { timeout: 10_000, interval: 20 };
type Counts = { dead_letter: number } & Record<string, number>;

async function counts(): Promise<Counts> {
  const answer = await fx.json('/v1/mailbox/counts');
  expect(answer.status).toBe(200);
  return answer.body.counts;
}

/** Submits `n` runs whose model fails for good and waits until each is a dead letter. */
async function deadLetters(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < n; index += 1) {
    const submitted = await fx.json('/v1/mailbox/submit', { body: { agentId: 'ops', input: 'permanent' } });
    ids.push(submitted.body.dispatchId);
  }
  await vi.waitFor(async () => {
    for (const id of ids) {
      expect((await fx.json(`/v1/mailbox/dispatches/${id}`)).body.status).toBe('dead_letter');
    }
  }, WAIT);
  return ids;
}

describe('mailbox tenant-wide view', () => {
  it('counts dispatches by status and lists one status newest first, paged, matching the counts', async () => {
    const before = await counts();
    expect(Object.keys(before).sort()).toEqual(
      ['acked', 'cancelled', 'claimed', 'dead_letter', 'queued', 'superseded'].sort(),
    );
    const dead = await deadLetters(3);
    const after = await counts();
    expect(after.dead_letter).toBe(before.dead_letter + 3);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await fx.json(
        `/v1/mailbox/dispatches?status=dead_letter&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      for (const item of page.body.items) {
        expect(item.status).toBe('dead_letter');
        expect(item.claimToken).toBeUndefined();
        expect(item.lastError).toEqual(expect.any(String));
      }
      seen.push(...page.body.items.map((item: { dispatchId: string }) => item.dispatchId));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(after.dead_letter);
    expect(seen.slice(0, 3)).toEqual([...dead].reverse());
    // the dead-letter listing of every thread reads the same index
    const all = await fx.json('/v1/mailbox/dead-letters?limit=1000');
    expect(all.body.items.map((item: { dispatchId: string }) => item.dispatchId)).toEqual(seen);
  });

  it('names the field of a bad query with 422', async () => {
    for (const [query, field] of [
      ['', 'status'],
      ['?status=lost', 'status'],
      ['?status=queued&limit=0', 'limit'],
      ['?status=queued&cursor=abc', 'cursor'],
    ] as const) {
      const bad = await fx.json(`/v1/mailbox/dispatches${query}`);
      expect(bad.status, query).toBe(422);
      expect(bad.body.error.message, query).toContain(field);
    }
  });

  it('purge-all: a count other than the one confirmed is a 409 and deletes nothing; the right one purges', async () => {
    await deadLetters(2);
    const now = await counts();
    const wrong = await fx.json('/v1/mailbox/dispatches/purge-all', {
      body: { status: 'dead_letter', expectedCount: now.dead_letter + 1 },
    });
    expect(wrong.status).toBe(409);
    expect(wrong.body.error.details).toMatchObject({ count: now.dead_letter, status: 'dead_letter' });
    expect((await counts()).dead_letter).toBe(now.dead_letter);
    for (const body of [
      { status: 'queued', expectedCount: 0 },
      { status: 'dead_letter' },
      { status: 'dead_letter', expectedCount: -1 },
      { status: 'dead_letter', expectedCount: 1, extra: true },
    ]) {
      const bad = await fx.json('/v1/mailbox/dispatches/purge-all', { body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
    }
    const purged = await fx.json('/v1/mailbox/dispatches/purge-all', {
      body: { status: 'dead_letter', expectedCount: now.dead_letter },
    });
    expect(purged.status).toBe(200);
    expect(purged.body.purged).toBe(now.dead_letter);
    expect((await counts()).dead_letter).toBe(0);
    expect((await fx.json('/v1/mailbox/dispatches?status=dead_letter')).body.items).toEqual([]);
  });

  it('retry-all: 409 on a stale count; requeues each dead letter once as a new run', async () => {
    const dead = await deadLetters(2);
    const { dead_letter: count } = await counts();
    const stale = await fx.json('/v1/mailbox/dead-letters/retry-all', { body: { expectedCount: count - 1 } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('conflict');
    expect((await fx.json('/v1/mailbox/dead-letters/retry-all', { body: {} })).status).toBe(422);
    const retried = await fx.json('/v1/mailbox/dead-letters/retry-all', { body: { expectedCount: count } });
    expect(retried.status).toBe(200);
    expect(retried.body.requeued.map((item: { requeuedFrom: string }) => item.requeuedFrom).sort()).toEqual(
      [...dead].sort(),
    );
    expect(retried.body.alreadyRequeued).toBe(count - dead.length);
    for (const id of dead) {
      const dispatch = await fx.json(`/v1/mailbox/dispatches/${id}`);
      expect(dispatch.body.requeuedRunId).toEqual(expect.any(String));
    }
    // the new runs fail again: dead letters of their own, and the first ones count as requeued now
    await vi.waitFor(async () => expect((await counts()).dead_letter).toBe(count + dead.length), WAIT);
    const again = await fx.json('/v1/mailbox/dead-letters/retry-all', {
      body: { expectedCount: count + dead.length },
    });
    expect(again.body.alreadyRequeued).toBe(count);
    expect(again.body.requeued).toHaveLength(dead.length);
  });
});
