import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpFixture, createHttpFixture, startRun } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

const WAIT = { timeout: 10_000, interval: 20 };
type Listed = { runId: string; status: string; prompt?: string; termination?: { type: string } };
const idsOf = (body: { items: Listed[] }) => body.items.map((run) => run.runId);

describe('GET /v1/runs (the runs list)', () => {
  it('lists every run newest first with its prompt, by status, and pages past 100', async () => {
    const waiting = await startRun(fx, { input: 'approve:1 #needle' });
    const done: string[] = [];
    for (let index = 0; index < 104; index += 1)
      done.push((await startRun(fx, { input: `plain #${index}` })).runId);
    const all = await fx.json('/v1/runs?limit=100');
    expect(all.status).toBe(200);
    expect(all.body.items).toHaveLength(100);
    expect(all.body.nextCursor).toEqual(expect.any(String));
    expect(all.body.items[0]).toMatchObject({ runId: done.at(-1), prompt: 'plain #103' });
    expect(all.body.items[0].state).toBeUndefined();
    const rest = await fx.json(`/v1/runs?limit=100&cursor=${all.body.nextCursor}`);
    expect([...idsOf(all.body), ...idsOf(rest.body)]).toEqual([...done].reverse().concat(waiting.runId));
    expect(rest.body.nextCursor).toBeUndefined();

    await vi.waitFor(async () => {
      const listed = await fx.json('/v1/runs?status=waiting');
      expect(idsOf(listed.body)).toEqual([waiting.runId]);
    }, WAIT);
    const live = await fx.json('/v1/runs?status=created,running,waiting');
    expect(live.body.items.every((run: Listed) => run.status !== 'done')).toBe(true);
  });

  it('filters by text, tool, thread, agent, termination and time; a scan filter may come back short with a cursor', async () => {
    const needle = await startRun(fx, { input: 'approve:1 #find-me-42' });
    const other = await startRun(fx, { input: 'plain #other' });
    const found = await fx.json('/v1/runs?q=FIND-ME-42');
    expect(idsOf(found.body)).toEqual([needle.runId]);
    expect(found.body.scanned).toBeGreaterThanOrEqual(1);
    expect(idsOf((await fx.json('/v1/runs?tool=approve_me&limit=1000')).body)).toContain(needle.runId);
    expect(idsOf((await fx.json('/v1/runs?tool=approve_me&limit=1000')).body)).not.toContain(other.runId);
    expect(idsOf((await fx.json(`/v1/runs?threadId=${other.threadId}`)).body)).toEqual([other.runId]);
    expect((await fx.json('/v1/runs?agentId=nobody')).body.items).toEqual([]);
    const run = (await fx.json(`/v1/runs/${other.runId}`)).body;
    const window = await fx.json(`/v1/runs?from=${run.createdAt}&to=${run.createdAt + 1}&limit=1000`);
    expect(idsOf(window.body)).toContain(other.runId);
    expect(idsOf(window.body)).not.toContain(needle.runId === other.runId ? '' : needle.runId);
    // a rare match behind many runs: each request reads a bounded number of runs and says where to go on
    const first = await fx.json('/v1/runs?agentId=nobody&limit=5');
    expect(first.body.scanned).toBeLessThanOrEqual(1000);
    const failed = await fx.json('/v1/runs?status=done&termination=error');
    expect(failed.body.items.every((item: Listed) => item.termination?.type === 'error')).toBe(true);
  });

  it('names the field of a bad query with 422; an unknown thread is a 404', async () => {
    for (const [query, field] of [
      ['?status=sleeping', 'status'],
      ['?termination=oops', 'termination'],
      ['?from=-1', 'from'],
      ['?to=soon', 'to'],
      ['?limit=1001', 'limit'],
      ['?cursor=abc', 'cursor'],
    ] as const) {
      const bad = await fx.json(`/v1/runs${query}`);
      expect(bad.status, query).toBe(422);
      expect(bad.body.error.message, query).toContain(field);
    }
    expect((await fx.json('/v1/runs?threadId=missing')).status).toBe(404);
  });
});
