import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { createMemoryStores } from '@awaken/store-memory';
import { type ManualClock, createManualClock } from '@awaken/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AGENT_ID, type HttpFixture, TOKENS, createHttpFixture } from '../../../test-support/http-fixture';

/**
 * One rule for an expired ticket, through the server: every answer to it is refused
 * `ticket_expired`, a cancel included — the call resolves as expired on its own, never as
 * cancelled. The stores run on a manual clock that stands still, so the dispatch that moves the run
 * on at `expiresAt` waits until the test advances it: the cancel arrives while the stored run still
 * shows the call waiting, its ticket's time already run out (what the judge sees with its clock).
 */
let fx: HttpFixture;
let clock: ManualClock;
let server: ServerType;
let url: string;
beforeAll(async () => {
  clock = createManualClock(Date.now());
  fx = await createHttpFixture({ stores: { acme: createMemoryStores({ now: clock.now }) } });
  server = serve({ fetch: fx.http.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await fx.close();
});

const WAIT = { timeout: 10_000, interval: 20 };

/** A `RunAgentInput` POST to the scenario agent over the socket; the AG-UI events it answered. */
async function run(body: Record<string, unknown>): Promise<Array<Record<string, any>>> {
  const response = await fetch(`${url}/v1/ag-ui/agents/${AGENT_ID}/run`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${TOKENS.acme}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({ tools: [], context: [], ...body }),
  });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return (await response.text())
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice(6)));
}

async function stored(runId: string) {
  const record = await fx.json(`/v1/runs/${runId}`);
  const decisions = await fx.json(`/v1/runs/${runId}/decisions`);
  return { status: record.body.status, waiting: record.body.waiting, decisions: decisions.body.decisions };
}

describe('AG-UI: a cancel of an expired interrupt is refused like every answer to it', () => {
  it('RUN_ERROR ticket_expired, the run unchanged; the call then resolves as expired, not cancelled', async () => {
    const threadId = 'agui-expired-cancel';
    const runId = 'agui-expired-cancel-1';
    // turn 0 asks an approval that expires in 200 ms; turn 1 asks one that never expires
    const asked = await run({
      threadId,
      runId,
      messages: [{ id: 'u1', role: 'user', content: 'expire:200 then approve:1' }],
    });
    const [interrupt] = asked.at(-1)?.outcome?.interrupts ?? [];
    expect(interrupt).toMatchObject({ reason: 'tool_call', toolCallId: 'approve_me_0_0' });
    const expiresAt = Date.parse(interrupt.expiresAt);
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(expiresAt), WAIT);
    const before = await stored(runId);
    expect(before.status).toBe('waiting');
    expect(before.waiting.tickets.map((ticket: any) => ticket.ticketId)).toEqual([interrupt.id]);

    const cancel = {
      threadId,
      runId,
      messages: [],
      resume: [{ interruptId: interrupt.id, status: 'cancelled' }],
    };
    const refused = await run(cancel);
    expect(refused.map((event) => event.type)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
    expect(refused.at(-1)).toMatchObject({ code: 'ticket_expired' });
    // unchanged: the same ticket waits, no decision was recorded, the call never ran
    expect(await stored(runId)).toEqual(before);
    expect(await fx.counters.get(`exec:${runId}:approve_me_0_0`)).toBe(0);

    // the expiry dispatch comes due: the run moves on to its next question by itself
    clock.advance(expiresAt - clock.now() + 1);
    const next = await vi.waitFor(async () => {
      const current = await stored(runId);
      expect(current.waiting?.tickets?.[0]?.toolCallId).toBe('approve_me_1_0');
      return current;
    }, WAIT);
    const messages = await fx.json(`/v1/threads/${threadId}/messages`);
    const tools = messages.body.items
      .map((item: { message: Record<string, unknown> }) => item.message)
      .filter((message: { role: string }) => message.role === 'tool');
    expect(tools).toMatchObject([{ toolCallId: 'approve_me_0_0', outcome: 'expired' }]);
    expect(await fx.counters.get(`exec:${runId}:approve_me_0_0`)).toBe(0);

    // a cancel of the interrupt the run already resolved as expired: still refused, nothing changes
    const late = await run(cancel);
    expect(late.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'ticket_expired' });
    expect(await stored(runId)).toEqual(next);
  });
});
