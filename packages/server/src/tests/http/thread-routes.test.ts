import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpFixture, createHttpFixture, startRun } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

describe('threads', () => {
  it('creates a thread (201), refuses the same id again (409) and an unknown field (422)', async () => {
    const created = await fx.json('/v1/threads', { body: { id: 'thread-a', metadata: { topic: 'x' } } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 'thread-a', metadata: { topic: 'x' } });
    const again = await fx.json('/v1/threads', { body: { id: 'thread-a' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    const unknown = await fx.json('/v1/threads', { body: { id: 'thread-b', colour: 'red' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.message).toContain('colour');
    const generated = await fx.json('/v1/threads', { method: 'POST' });
    expect(generated.status).toBe(201);
    expect(generated.body.id).toEqual(expect.any(String));
  });

  it('gets a thread (200) and answers 404 for an unknown id', async () => {
    await fx.json('/v1/threads', { body: { id: 'thread-get' } });
    expect((await fx.json('/v1/threads/thread-get')).body.id).toBe('thread-get');
    const missing = await fx.json('/v1/threads/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: 'not_found', message: 'thread nope not found' } });
  });

  it('lists threads in pages and rejects a bad limit (422 naming limit)', async () => {
    for (const id of ['page-1', 'page-2', 'page-3']) await fx.json('/v1/threads', { body: { id } });
    const first = await fx.json('/v1/threads?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await fx.json(`/v1/threads?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.items.length).toBeGreaterThan(0);
    const bad = await fx.json('/v1/threads?limit=0');
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain('limit');
  });

  it('lists threads newest first (the thread written last first) with their titles; 422 naming order for an unknown order', async () => {
    const older = await startRun(fx, { input: '  the   first question\n' });
    const newer = await startRun(fx, { input: 'plain' });
    const listed = await fx.json('/v1/threads?order=newest&limit=1000');
    expect(listed.status).toBe(200);
    const ids = listed.body.items.map((thread: { id: string }) => thread.id);
    expect(ids.indexOf(newer.threadId)).toBeLessThan(ids.indexOf(older.threadId));
    expect(ids.indexOf(newer.threadId)).toBe(0);
    expect(listed.body.items[ids.indexOf(older.threadId)].title).toBe('the first question');
    // a new message moves the older thread to the front; the oldest order stays creation order
    await startRun(fx, { input: 'again', threadId: older.threadId });
    const again = await fx.json('/v1/threads?order=newest&limit=1');
    expect(again.body.items.map((thread: { id: string }) => thread.id)).toEqual([older.threadId]);
    expect(again.body.items[0].title).toBe('the first question');
    expect(again.body.nextCursor).toEqual(expect.any(String));
    const oldest = (await fx.json('/v1/threads?limit=1000')).body.items.map(
      (thread: { id: string }) => thread.id,
    );
    expect(oldest.indexOf(older.threadId)).toBeLessThan(oldest.indexOf(newer.threadId));
    const bad = await fx.json('/v1/threads?order=sideways');
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain('order');
  });

  it("lists the tenant's agents and the chat's default agent", async () => {
    const agents = await fx.json('/v1/agents');
    expect(agents.status).toBe(200);
    // every agent of the tenant's runtime (the fixture's own and its sub-agents), ids only
    expect(agents.body.items.length).toBeGreaterThan(0);
    for (const item of agents.body.items) expect(item).toEqual({ id: expect.any(String) });
    expect(new Set(agents.body.items.map((item: { id: string }) => item.id)).size).toBe(
      agents.body.items.length,
    );
    expect((await fx.json('/v1/agents', { token: null })).status).toBe(401);
  });

  it('pages messages by seq, filters by visibility, 404 for an unknown thread, 422 for a bad cursor', async () => {
    const run = await startRun(fx, { input: 'plain' });
    const all = await fx.json(`/v1/threads/${run.threadId}/messages`);
    expect(all.status).toBe(200);
    const roles = all.body.items.map((item: { message: { role: string } }) => item.message.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const page = await fx.json(`/v1/threads/${run.threadId}/messages?limit=1&after=1`);
    expect(page.body.items.map((item: { seq: number }) => item.seq)).toEqual([2]);
    expect(page.body.nextCursor).toBe('2');
    const beyond = await fx.json(`/v1/threads/${run.threadId}/messages?after=99`);
    expect(beyond.body).toEqual({ items: [] });
    expect((await fx.json('/v1/threads/nope/messages')).status).toBe(404);
    const bad = await fx.json(`/v1/threads/${run.threadId}/messages?after=-1`);
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain('after');
  });

  it('deletes a thread (204), then it is gone (404); a thread with queued work is refused (409)', async () => {
    const run = await startRun(fx, { input: 'plain' });
    // the run's dispatch is acked right after its last event: until then the thread is busy
    await vi.waitFor(async () => {
      expect((await fx.call(`/v1/threads/${run.threadId}`, { method: 'DELETE' })).status).toBe(204);
    });
    expect((await fx.call(`/v1/threads/${run.threadId}`)).status).toBe(404);
    expect((await fx.call(`/v1/threads/${run.threadId}`, { method: 'DELETE' })).status).toBe(404);

    const busy = await fx.json('/v1/runs', { body: { agentId: 'ops', input: 'slow:3000', stream: false } });
    expect(busy.status).toBe(202);
    const refused = await fx.json(`/v1/threads/${busy.body.threadId}`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    await fx.call(`/v1/runs/${busy.body.runId}/cancel`, { method: 'POST' });
  });
});
