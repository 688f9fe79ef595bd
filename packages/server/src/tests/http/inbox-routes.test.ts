import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpFixture, TOKENS, createHttpFixture, startRun } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

const WAIT = { timeout: 10_000, interval: 20 };

/** Reads `event: inbox` frames of an open inbox stream, one at a time. */
function inboxFrames(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<{ items: { runId: string; tickets: { ticketId: string }[] }[] }> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').find((line) => line.startsWith('data: '));
          if (frame.includes('event: inbox') && data) return JSON.parse(data.slice(6));
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the inbox stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

describe('inbox and tenant runs', () => {
  it('lists a waiting run with its tickets, newest first, to its own tenant only', async () => {
    const older = await startRun(fx, { input: 'approve:1' });
    const newer = await startRun(fx, { input: 'approve:2' });
    const inbox = await fx.json('/v1/inbox');
    expect(inbox.status).toBe(200);
    const ids = inbox.body.items.map((item: { runId: string }) => item.runId);
    expect(ids.indexOf(newer.runId)).toBeLessThan(ids.indexOf(older.runId));
    const item = inbox.body.items.find((entry: { runId: string }) => entry.runId === newer.runId);
    expect(item).toMatchObject({ threadId: newer.threadId, agentId: expect.any(String) });
    expect(item.tickets).toHaveLength(2);
    expect(item.tickets[0]).toMatchObject({ ticketId: expect.any(String), toolName: expect.any(String) });
    const other = await fx.json('/v1/inbox', { token: TOKENS.globex });
    expect(other.body.items).toEqual([]);
    expect((await fx.json('/v1/inbox', { token: null })).status).toBe(401);
  });

  it('lists the runs of one status across threads; an unknown status is a 422 naming status', async () => {
    const waiting = await startRun(fx, { input: 'approve:1' });
    const done = await startRun(fx, { input: 'plain' });
    const listed = await fx.json('/v1/runs?status=waiting');
    expect(listed.body.items.map((run: { runId: string }) => run.runId)).toContain(waiting.runId);
    expect(listed.body.items.every((run: { status: string }) => run.status === 'waiting')).toBe(true);
    expect(listed.body.items[0].state).toBeUndefined();
    await vi.waitFor(async () => {
      const finished = await fx.json('/v1/runs?status=done&limit=1000');
      expect(finished.body.items.map((run: { runId: string }) => run.runId)).toContain(done.runId);
    }, WAIT);
    for (const query of ['?status=sleeping', '?status=waiting,']) {
      const bad = await fx.json(`/v1/runs${query}`);
      expect(bad.status).toBe(422);
      expect(bad.body.error.message).toContain('status');
    }
    const byAgent = await fx.json('/v1/runs?status=waiting&agentId=nobody');
    expect(byAgent.body.items).toEqual([]);
  });

  it('streams the inbox at once and again when a decision takes a run out of it', async () => {
    const run = await startRun(fx, { input: 'approve:1' });
    const response = await fx.call('/v1/inbox/events');
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const frames = inboxFrames(response);
    const first = await frames.next();
    const item = first.items.find((entry) => entry.runId === run.runId);
    expect(item).toBeDefined();
    const decided = await fx.json(`/v1/runs/${run.runId}/decision`, {
      body: { ticketId: item!.tickets[0]!.ticketId, result: { approved: true } },
    });
    expect(decided.status).toBe(200);
    await vi.waitFor(async () => {
      const next = await frames.next();
      expect(next.items.map((entry) => entry.runId)).not.toContain(run.runId);
    }, WAIT);
    await frames.cancel();
  });
});
