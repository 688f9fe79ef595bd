import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpFixture, createHttpFixture, startRun } from '../../../test-support/http-fixture';
import { LEAD_ID } from '../../../test-support/sub-agent-scenario';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

const WAIT = { timeout: 10_000, interval: 20 };

async function untilDone(runId: string) {
  return vi.waitFor(async () => {
    const run = await fx.json(`/v1/runs/${runId}`);
    expect(run.body.status).toBe('done');
    return run.body;
  }, WAIT);
}

describe('a sub-agent through the HTTP API', () => {
  it("its question is the top-level run's nested ticket, listed once in the inbox; a denial sent there reaches the child", async () => {
    const lead = await startRun(fx, { agentId: LEAD_ID, input: 'approve:1' });
    const types = lead.events.map((event) => event.type);
    expect(types).toEqual(
      expect.arrayContaining(['subagent_start', 'subagent_finish', 'tool_call_suspended']),
    );
    const run = (await fx.json(`/v1/runs/${lead.runId}`)).body;
    expect(run.status).toBe('waiting');
    const [ticket] = run.waiting.tickets;
    expect(ticket).toMatchObject({
      toolName: 'helper',
      nested: { toolName: 'approve_me', agentPath: ['lead', 'helper'] },
    });
    const childId = ticket.nested.runId;
    expect((await fx.json(`/v1/runs/${childId}`)).body).toMatchObject({
      status: 'waiting',
      origin: 'internal',
      parentRunId: lead.runId,
      parentCallId: ticket.toolCallId,
      agentPath: ['lead', 'helper'],
    });

    const inbox = (await fx.json('/v1/inbox')).body.items.map((item: { runId: string }) => item.runId);
    expect(inbox).toContain(lead.runId);
    expect(inbox).not.toContain(childId);
    const waiting = (await fx.json('/v1/runs?status=waiting')).body.items.map(
      (item: { runId: string }) => item.runId,
    );
    expect(waiting).toContain(childId);

    const decided = await fx.json(`/v1/runs/${lead.runId}/decisions`, {
      body: { decisions: [{ ticketId: ticket.ticketId, action: 'cancel', reason: 'no' }] },
    });
    expect(decided.body.receipts).toMatchObject([{ status: 'accepted', toolCallId: ticket.toolCallId }]);
    expect(await untilDone(lead.runId)).toMatchObject({ response: 'lead heard: "done after 1 results"' });
    expect((await fx.json(`/v1/runs/${childId}`)).body).toMatchObject({ status: 'done' });
    expect(await fx.counters.get(`exec:${childId}:${ticket.nested.toolCallId}`)).toBe(0);
  });

  it("a child run is not cancelled behind its parent's back (409 naming the top-level run); cancelling the parent ends both", async () => {
    const lead = await startRun(fx, { agentId: LEAD_ID, input: 'approve:1' });
    const run = (await fx.json(`/v1/runs/${lead.runId}`)).body;
    const childId = run.waiting.tickets[0].nested.runId;
    const refused = await fx.json(`/v1/runs/${childId}/cancel`, { body: { reason: 'stop it' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toMatchObject({ runId: childId, topLevelRunId: lead.runId });
    expect(refused.body.error.message).toContain(lead.runId);
    // nothing happened: both still wait, the parent's question still answerable
    expect((await fx.json(`/v1/runs/${childId}`)).body.status).toBe('waiting');
    expect((await fx.json(`/v1/runs/${lead.runId}`)).body.status).toBe('waiting');
    const cancelled = await fx.json(`/v1/runs/${lead.runId}/cancel`, { body: { reason: 'stop it' } });
    expect(cancelled.status).toBe(200);
    expect(await untilDone(lead.runId)).toMatchObject({ termination: { type: 'cancelled' } });
    expect((await untilDone(childId)).termination.type).toBe('cancelled');
  });

  it("the thread list leaves child threads out unless asked; deleting a waiting parent's thread ends its child too", async () => {
    const lead = await startRun(fx, { agentId: LEAD_ID, input: 'approve:1' });
    const run = (await fx.json(`/v1/runs/${lead.runId}`)).body;
    const childId = run.waiting.tickets[0].nested.runId;
    const child = (await fx.json(`/v1/runs/${childId}`)).body;
    const listed = async (query: string) => {
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = (await fx.json(`/v1/threads?limit=2${query}${cursor ? `&cursor=${cursor}` : ''}`)).body;
        ids.push(...page.items.map((thread: { id: string }) => thread.id));
        cursor = page.nextCursor;
      } while (cursor);
      return ids;
    };
    expect(await listed('')).toContain(lead.threadId);
    expect(await listed('')).not.toContain(child.threadId);
    expect(await listed('&includeSubthreads=true')).toEqual(
      expect.arrayContaining([lead.threadId, child.threadId]),
    );
    expect((await fx.json('/v1/threads?includeSubthreads=yes')).status).toBe(422);

    expect((await fx.call(`/v1/threads/${lead.threadId}`, { method: 'DELETE' })).status).toBe(204);
    expect((await fx.json(`/v1/runs/${lead.runId}`)).status).toBe(404);
    // the child does not wait for ever for a parent that is gone: it was cancelled with it
    expect((await untilDone(childId)).termination.type).toBe('cancelled');
    expect((await fx.call(`/v1/threads/${child.threadId}`, { method: 'DELETE' })).status).toBe(204);
  });
});
