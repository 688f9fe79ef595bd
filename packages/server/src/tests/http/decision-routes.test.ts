import type { AgentEventOf } from '@awaken/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpFixture, createHttpFixture, parseSse, startRun } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

const WAIT = { timeout: 10_000, interval: 20 };

async function waitingRun(input = 'approve:1') {
  const run = await startRun(fx, { input });
  const tickets = run.events.filter(
    (event): event is AgentEventOf<'tool_call_suspended'> => event.type === 'tool_call_suspended',
  );
  return { ...run, tickets };
}

async function untilDone(runId: string) {
  return vi.waitFor(async () => {
    const run = await fx.json(`/v1/runs/${runId}`);
    expect(run.body.status).toBe('done');
    return run.body;
  }, WAIT);
}

describe('decisions', () => {
  it('one decision to a run: accepted, the same decision again is a duplicate, the run finishes', async () => {
    const run = await waitingRun();
    const decision = {
      toolCallId: run.tickets[0]?.toolCallId,
      decisionId: 'd-1',
      result: { approved: true },
    };
    const first = await fx.json(`/v1/runs/${run.runId}/decision`, { body: decision });
    expect(first.status).toBe(200);
    expect(first.body.receipts).toEqual([
      // the receipt names the call and the ticket the decision answers
      {
        toolCallId: decision.toolCallId,
        ticketId: run.tickets[0]?.ticket.suspension.id,
        decisionId: 'd-1',
        status: 'accepted',
      },
    ]);
    expect(first.body.resumeDispatchId).toEqual(expect.any(String));
    const again = await fx.json(`/v1/runs/${run.runId}/decision`, { body: decision });
    expect(again.status).toBe(200);
    // queued, running or applied: the same decision id is a duplicate, never a second delivery
    expect(again.body.receipts[0].status).toBe('duplicate');
    expect(await untilDone(run.runId)).toMatchObject({ termination: { type: 'natural_end' } });
    const late = await fx.json(`/v1/runs/${run.runId}/decision`, { body: decision });
    expect(late.status).toBe(200);
    expect(late.body.receipts[0]).toMatchObject({ decisionId: 'd-1', status: 'duplicate' });
    expect(await untilDone(run.runId)).toMatchObject({ termination: { type: 'natural_end' } });
    expect(await fx.counters.get(`exec:${run.runId}:${decision.toolCallId}`)).toBe(1);
  });

  it('records who decided: the caller (tenant, subject, request id) travels with the decision', async () => {
    const run = await waitingRun();
    const last = run.ids.at(-1) ?? 0;
    await fx.json(`/v1/runs/${run.runId}/decision`, {
      body: { toolCallId: run.tickets[0]?.toolCallId, result: { approved: true } },
      headers: { 'x-request-id': 'req-decide-1' },
    });
    await untilDone(run.runId);
    const continued = parseSse(
      await (
        await fx.call(`/v1/runs/${run.runId}/events`, { headers: { 'last-event-id': String(last) } })
      ).text(),
    );
    const resumed = continued.events.find((event) => event.type === 'tool_call_resumed');
    expect(resumed?.type === 'tool_call_resumed' && resumed.decision.context).toEqual({
      caller: { tenant: 'acme', subject: 'alice', requestId: 'req-decide-1' },
    });
  });

  it('a decision may name its call by ticket id', async () => {
    const run = await waitingRun();
    const ticketId = run.tickets[0]?.ticket.suspension.id;
    const decided = await fx.json(`/v1/runs/${run.runId}/decision`, {
      body: { ticketId, result: { approved: true } },
    });
    expect(decided.body.receipts[0]).toMatchObject({
      status: 'accepted',
      toolCallId: run.tickets[0]?.toolCallId,
    });
    await untilDone(run.runId);
  });

  it('a batch to a run: one receipt per decision; approve one, cancel the other', async () => {
    const run = await waitingRun('approve:2');
    const [a, b] = run.tickets;
    const decided = await fx.json(`/v1/runs/${run.runId}/decisions`, {
      body: {
        decisions: [
          { toolCallId: a?.toolCallId, result: { approved: true } },
          { toolCallId: b?.toolCallId, action: 'cancel', reason: 'no' },
        ],
      },
    });
    expect(decided.status).toBe(200);
    expect(decided.body.receipts.map((receipt: { status: string }) => receipt.status)).toEqual([
      'accepted',
      'accepted',
    ]);
    await untilDone(run.runId);
    expect(await fx.counters.get(`exec:${run.runId}:${a?.toolCallId}`)).toBe(1);
    expect(await fx.counters.get(`exec:${run.runId}:${b?.toolCallId}`)).toBe(0);
  });

  it("to a thread's open run, one or a batch; 404 when the thread has none", async () => {
    const run = await waitingRun('approve:2');
    const [a, b] = run.tickets;
    const one = await fx.json(`/v1/threads/${run.threadId}/decision`, {
      body: { toolCallId: a?.toolCallId, result: { approved: true } },
    });
    expect(one.body).toMatchObject({ runId: run.runId, receipts: [{ status: 'accepted' }] });
    const batch = await fx.json(`/v1/threads/${run.threadId}/decisions`, {
      body: { decisions: [{ toolCallId: b?.toolCallId, result: { approved: true } }] },
    });
    expect(batch.status).toBe(200);
    await untilDone(run.runId);
    const none = await fx.json(`/v1/threads/${run.threadId}/decision`, {
      body: { toolCallId: 'x', result: { approved: true } },
    });
    expect(none.status).toBe(404);
  });

  it('a decision for a call that does not wait, or for a finished run, is 409 and never redirected', async () => {
    const run = await waitingRun('approve:2');
    const unknown = await fx.json(`/v1/runs/${run.runId}/decision`, {
      body: { toolCallId: 'nope', result: {} },
    });
    expect(unknown.status).toBe(409);
    expect(unknown.body.error).toMatchObject({ code: 'decision_rejected' });
    expect(unknown.body.error.details.receipts[0].reason).toBe('unknown_tool_call');
    await fx.call(`/v1/runs/${run.runId}/cancel`, { method: 'POST' });
    const finished = await fx.json(`/v1/runs/${run.runId}/decision`, {
      body: { toolCallId: run.tickets[0]?.toolCallId, result: { approved: true } },
    });
    expect(finished.status).toBe(409);
    expect(finished.body.error.details.receipts[0].reason).toBe('run_finished');
  });

  it('422 for a decision that names no call, an unknown action or an empty batch; 404 for an unknown run', async () => {
    const run = await waitingRun();
    const noCall = await fx.json(`/v1/runs/${run.runId}/decision`, { body: { result: {} } });
    expect(noCall.status).toBe(422);
    expect(noCall.body.error.message).toContain('toolCallId');
    const action = await fx.json(`/v1/runs/${run.runId}/decision`, {
      body: { toolCallId: 'a', action: 'maybe' },
    });
    expect(action.status).toBe(422);
    expect(action.body.error.message).toContain('action');
    const empty = await fx.json(`/v1/runs/${run.runId}/decisions`, { body: { decisions: [] } });
    expect(empty.status).toBe(422);
    expect(empty.body.error.message).toContain('decisions');
    expect((await fx.json('/v1/runs/missing/decision', { body: { toolCallId: 'a' } })).status).toBe(404);
  });
});

describe('run commands', () => {
  it('cancels a waiting run (200, done cancelled), again idempotently; 404 for an unknown run', async () => {
    const run = await waitingRun();
    const cancelled = await fx.json(`/v1/runs/${run.runId}/cancel`, { body: { reason: 'not needed' } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'done', termination: { type: 'cancelled' } });
    expect((await fx.json(`/v1/runs/${run.runId}/cancel`, { method: 'POST' })).body.status).toBe('done');
    expect((await fx.json('/v1/runs/missing/cancel', { method: 'POST' })).status).toBe(404);
    expect((await fx.json(`/v1/runs/${run.runId}/cancel`, { body: { reason: 7 } })).status).toBe(422);
  });

  it('cancels an executing run', async () => {
    const started = await fx.json('/v1/runs', {
      body: { agentId: 'ops', input: 'slow:5000', stream: false },
    });
    await vi.waitFor(async () => {
      expect(await fx.counters.get(`slow-started:${started.body.runId}`)).toBe(1);
    }, WAIT);
    const cancelled = await fx.json(`/v1/runs/${started.body.runId}/cancel`, { method: 'POST' });
    expect(cancelled.body).toMatchObject({ status: 'done', termination: { type: 'cancelled' } });
  });

  it('interrupts a thread: its waiting run is cancelled; 404 for an unknown thread', async () => {
    const run = await waitingRun();
    const interrupted = await fx.json(`/v1/threads/${run.threadId}/interrupt`, { method: 'POST' });
    expect(interrupted.status).toBe(200);
    expect(interrupted.body).toMatchObject({ threadId: run.threadId, newDispatchEpoch: expect.any(Number) });
    await untilDone(run.runId);
    expect((await fx.json('/v1/threads/missing/interrupt', { method: 'POST' })).status).toBe(404);
  });

  it('injects input: queue and interrupt start runs (202); steer reaches the executing run, resume the waiting one', async () => {
    const base = await startRun(fx, { input: 'plain' });
    const queued = await fx.json(`/v1/threads/${base.threadId}/inject`, {
      body: { input: 'plain', mode: 'queue' },
    });
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ mode: 'queue', runId: expect.any(String) });
    await untilDone(queued.body.runId);
    const interrupt = await fx.json(`/v1/threads/${base.threadId}/inject`, {
      body: { input: 'plain', mode: 'interrupt' },
    });
    expect(interrupt.status).toBe(202);
    await untilDone(interrupt.body.runId);
    // resume: the waiting run continues with the input, under its own id
    const waiting = await waitingRun();
    const resumed = await fx.json(`/v1/threads/${waiting.threadId}/inject`, {
      body: { input: 'no tools', mode: 'resume' },
    });
    expect(resumed.status).toBe(202);
    expect(resumed.body).toMatchObject({ mode: 'resume', runId: waiting.runId });
    expect(await untilDone(waiting.runId)).toMatchObject({ termination: { type: 'natural_end' } });
    // steer: the executing run reads the input at its next step
    const slow = await fx.json('/v1/runs', { body: { agentId: 'ops', input: 'slow:400', stream: false } });
    await vi.waitFor(async () => {
      expect(await fx.counters.get(`slow-started:${slow.body.runId}`)).toBe(1);
    }, WAIT);
    const steered = await fx.json(`/v1/threads/${slow.body.threadId}/inject`, {
      body: { input: 'no tools', mode: 'steer' },
    });
    expect(steered.status).toBe(202);
    expect(steered.body).toMatchObject({ mode: 'steer', runId: slow.body.runId });
    await untilDone(slow.body.runId);
    const messages = await fx.json(`/v1/threads/${slow.body.threadId}/messages`);
    const users = messages.body.items.filter(
      (item: { message: { role: string } }) => item.message.role === 'user',
    );
    expect(users.map((item: { message: { content: string } }) => item.message.content)).toEqual([
      'slow:400',
      'no tools',
    ]);
    const bad = await fx.json(`/v1/threads/${base.threadId}/inject`, { body: { input: 'x', mode: 'shout' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain('mode');
    expect(
      (await fx.json('/v1/threads/missing/inject', { body: { input: 'x', mode: 'queue' } })).status,
    ).toBe(404);
  });
});
