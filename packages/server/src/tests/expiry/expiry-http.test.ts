import type { AgentEventOf } from '@awaken/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpFixture, createHttpFixture, startRun } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

const WAIT = { timeout: 10_000, interval: 20 };

describe('an approval that expires, over HTTP with real time', () => {
  it('moves the run on at expiresAt with nobody answering; a late answer is 409 ticket_expired', async () => {
    // turn 0 asks an approval that expires in 300 ms; turn 1 asks another one (which never expires)
    const run = await startRun(fx, { input: 'expire:300 then approve:1' });
    const asked = run.events.find(
      (event): event is AgentEventOf<'tool_call_suspended'> => event.type === 'tool_call_suspended',
    );
    const expiresAt = asked?.ticket.expiresAt;
    expect(expiresAt).toEqual(expect.any(Number));
    const waiting = await fx.json(`/v1/runs/${run.runId}`);
    expect(waiting.body.status).toBe('waiting');

    // nobody answers: at expiresAt the scheduled dispatch moves the run on to its next question
    const next = await vi.waitFor(async () => {
      const current = await fx.json(`/v1/runs/${run.runId}`);
      expect(current.body.waiting?.tickets?.[0]?.toolCallId).toBe('approve_me_1_0');
      return current.body;
    }, WAIT);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt!);
    expect(next.status).toBe('waiting');
    expect(await fx.counters.get(`exec:${run.runId}:approve_me_0_0`)).toBe(0);

    const late = await fx.json(`/v1/runs/${run.runId}/decision`, {
      body: { ticketId: asked!.ticket.suspension.id, decisionId: 'late', result: { approved: true } },
    });
    expect(late.status, JSON.stringify(late.body)).toBe(409);
    expect(late.body.error.code).toBe('ticket_expired');
    expect(await fx.counters.get(`exec:${run.runId}:approve_me_0_0`)).toBe(0);

    const messages = await fx.json(`/v1/threads/${run.threadId}/messages`);
    const told = (messages.body.items ?? messages.body.messages ?? []).map(
      (entry: { message?: unknown }) => entry.message ?? entry,
    );
    expect(told).toContainEqual(
      expect.objectContaining({ role: 'tool', toolCallId: 'approve_me_0_0', outcome: 'expired' }),
    );
  });
});
