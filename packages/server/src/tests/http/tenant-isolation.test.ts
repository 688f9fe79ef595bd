import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpFixture, TOKENS, createHttpFixture, startRun } from '../../../test-support/http-fixture';

let fx: HttpFixture;
let acme: { runId: string; threadId: string; toolCallId: string; dispatchId: string; deadDispatchId: string };
beforeAll(async () => {
  fx = await createHttpFixture();
  const run = await startRun(fx, { input: 'approve:1' });
  const suspended = run.events.find((event) => event.type === 'tool_call_suspended');
  const dispatches = await fx.json(`/v1/threads/${run.threadId}/dispatches`);
  const dead = await fx.json('/v1/mailbox/submit', { body: { agentId: 'ops', input: 'permanent' } });
  await vi.waitFor(async () => {
    expect((await fx.json(`/v1/mailbox/dispatches/${dead.body.dispatchId}`)).body.status).toBe('dead_letter');
  });
  acme = {
    runId: run.runId,
    threadId: run.threadId,
    toolCallId: suspended?.type === 'tool_call_suspended' ? suspended.toolCallId : '',
    dispatchId: dispatches.body.items[0].dispatchId,
    deadDispatchId: dead.body.dispatchId,
  };
});
afterAll(() => fx.close());

const asGlobex = { token: TOKENS.globex };

describe("another tenant's ids are 404 on every route", () => {
  it('every route naming a thread, run or dispatch of acme answers 404 to globex, and 401 without a valid token', async () => {
    const { runId, threadId, toolCallId, dispatchId, deadDispatchId } = acme;
    const decision = { toolCallId, result: { approved: true } };
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/v1/threads/${threadId}`],
      ['DELETE', `/v1/threads/${threadId}`],
      ['GET', `/v1/threads/${threadId}/messages`],
      ['GET', `/v1/threads/${threadId}/runs`],
      ['GET', `/v1/threads/${threadId}/active-run`],
      ['POST', `/v1/threads/${threadId}/decision`, decision],
      ['POST', `/v1/threads/${threadId}/decisions`, { decisions: [decision] }],
      ['POST', `/v1/threads/${threadId}/interrupt`, {}],
      ['POST', `/v1/threads/${threadId}/inject`, { input: 'hi', mode: 'queue' }],
      ['GET', `/v1/threads/${threadId}/dispatches`],
      ['GET', `/v1/runs/${runId}`],
      ['GET', `/v1/runs/${runId}/events`],
      ['GET', `/v1/runs/${runId}/recording`],
      ['POST', `/v1/runs/${runId}/decision`, decision],
      ['POST', `/v1/runs/${runId}/decisions`, { decisions: [decision] }],
      ['POST', `/v1/runs/${runId}/cancel`, {}],
      ['GET', `/v1/mailbox/dispatches/${dispatchId}`],
      ['GET', `/v1/mailbox/dead-letters?threadId=${threadId}`],
      ['POST', `/v1/mailbox/dead-letters/${deadDispatchId}/requeue`],
    ];
    for (const [method, path, body] of routes) {
      const response = await fx.json(path, { method, ...(body === undefined ? {} : { body }), ...asGlobex });
      expect({ method, path, status: response.status, code: response.body?.error?.code }).toEqual({
        method,
        path,
        status: 404,
        code: 'not_found',
      });
    }
    // without a token, or with a wrong one, every one of them is 401
    for (const [method, path, body] of routes) {
      for (const token of [null, 'not-a-configured-token-at-all']) {
        const response = await fx.json(path, { method, ...(body === undefined ? {} : { body }), token });
        expect({ method, path, status: response.status }).toEqual({ method, path, status: 401 });
      }
    }
    // and nothing happened to acme's run
    const run = await fx.json(`/v1/runs/${runId}`);
    expect(run.body.status).toBe('waiting');
    expect(await fx.counters.get(`exec:${runId}:${toolCallId}`)).toBe(0);
  });

  it("lists never show another tenant's threads or dead letters, and its ids can be reused", async () => {
    const threads = await fx.json('/v1/threads?limit=1000', asGlobex);
    expect(threads.body.items.map((thread: { id: string }) => thread.id)).not.toContain(acme.threadId);
    const dead = await fx.json('/v1/mailbox/dead-letters', asGlobex);
    expect(dead.body.items).toEqual([]);
    const same = await fx.json('/v1/threads', { body: { id: acme.threadId }, ...asGlobex });
    expect(same.status).toBe(201);
    const started = await fx.json('/v1/runs', {
      body: { agentId: 'ops', threadId: acme.threadId, runId: acme.runId, input: 'plain', stream: false },
      ...asGlobex,
    });
    expect(started.status).toBe(202);
    await vi.waitFor(async () => {
      expect((await fx.json(`/v1/runs/${acme.runId}`, asGlobex)).body.status).toBe('done');
    });
    expect((await fx.json(`/v1/runs/${acme.runId}`)).body.status).toBe('waiting');
    const purged = await fx.json('/v1/mailbox/purge', {
      body: { olderThan: Date.now() + 60_000 },
      ...asGlobex,
    });
    expect(purged.status).toBe(200);
    expect((await fx.json(`/v1/mailbox/dispatches/${acme.deadDispatchId}`)).status).toBe(200);
  });
});
