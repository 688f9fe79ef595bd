import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, createHttpFixture, startRun } from '../../../test-support/http-fixture';
import { LEAD_ID } from '../../../test-support/sub-agent-scenario';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

/**
 * The thread of a sub-agent's child run takes no run from outside: a new run submitted on it (with
 * `ifBusy: 'interrupt'`, which would cancel the waiting child as superseded) is refused like a
 * decision or input sent to the child, so the parent is never left waiting on a question whose child
 * was cancelled behind its back.
 */
describe("a run submitted on a sub-agent's child thread", () => {
  it('is refused 409 naming the top-level run, whatever ifBusy says; the child still waits', async () => {
    const lead = await startRun(fx, { agentId: LEAD_ID, input: 'approve:1' });
    const [ticket] = (await fx.json(`/v1/runs/${lead.runId}`)).body.waiting.tickets;
    const child = (await fx.json(`/v1/runs/${ticket.nested.runId}`)).body;
    expect(child.status).toBe('waiting');
    for (const ifBusy of ['interrupt', 'queue', 'conflict']) {
      const refused = await fx.json('/v1/runs', {
        body: { agentId: LEAD_ID, threadId: child.threadId, input: 'something else', ifBusy },
      });
      expect(refused.status).toBe(409);
      expect(refused.body.error.details).toMatchObject({ runId: child.runId, topLevelRunId: lead.runId });
    }
    expect((await fx.json(`/v1/runs/${child.runId}`)).body).toMatchObject({
      status: 'waiting',
      termination: { type: 'suspended' },
    });
    expect((await fx.json(`/v1/threads/${child.threadId}`)).body.latestRunId).toBe(child.runId);
  });

  it("DELETE of the child's thread is refused 409 naming the top-level run; the child and its thread stay", async () => {
    const lead = await startRun(fx, { agentId: LEAD_ID, input: 'approve:1' });
    const [ticket] = (await fx.json(`/v1/runs/${lead.runId}`)).body.waiting.tickets;
    const child = (await fx.json(`/v1/runs/${ticket.nested.runId}`)).body;
    const refused = await fx.json(`/v1/threads/${child.threadId}`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toMatchObject({ runId: child.runId, topLevelRunId: lead.runId });
    expect((await fx.json(`/v1/threads/${child.threadId}`)).status).toBe(200);
    expect((await fx.json(`/v1/runs/${child.runId}`)).body.status).toBe('waiting');
    // once its parent's thread is deleted, the orphaned child's thread may go too
    expect((await fx.call(`/v1/threads/${lead.threadId}`, { method: 'DELETE' })).status).toBe(204);
    expect((await fx.call(`/v1/threads/${child.threadId}`, { method: 'DELETE' })).status).toBe(204);
    expect((await fx.json(`/v1/runs/${child.runId}`)).status).toBe(404);
  });
});
