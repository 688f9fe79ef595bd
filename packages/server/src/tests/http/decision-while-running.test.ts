import { randomUUID } from 'node:crypto';
import type { AgentEvent } from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AGENT_ID, type HttpFixture, createHttpFixture } from '../../../test-support/http-fixture';

/**
 * A run that is `running` (a parallel `slow` tool still sleeps) while one call already waits on its
 * ticket: the suspension is checkpointed before its event goes out, so the stored run shows the
 * ticket, and a decision the stored run proves wrong is refused (409/422), never a 200 `accepted`
 * that the owner then drops.
 */
let fx: HttpFixture;
const memory = createMemoryStores();
beforeAll(async () => {
  fx = await createHttpFixture({
    stores: {
      acme: {
        threadRuns: memory.threadRuns,
        mailbox: memory.mailbox,
        eventLog: memory.eventLog,
        inbox: memory.inbox,
      },
    },
  });
});
afterAll(() => fx.close());
const WAIT = { timeout: 10_000, interval: 20 };

async function runningWithTicket() {
  const runId = `run-${randomUUID()}`;
  await fx.services.acme.submit({
    agentId: AGENT_ID,
    runId,
    threadId: `thread-${runId}`,
    input: 'approve:1 slow:1500',
    mode: 'background',
  });
  const suspended = await vi.waitFor(async () => {
    const list: AgentEvent[] = await memory.eventLog.read(runId, { limit: 1000 });
    const found = list.find((event) => event.type === 'tool_call_suspended');
    expect(found).toBeDefined();
    return found;
  }, WAIT);
  if (suspended?.type !== 'tool_call_suspended') throw new Error('no ticket');
  const run = await fx.json(`/v1/runs/${runId}`);
  expect(run.body.status).toBe('running');
  return { runId, toolCallId: suspended.toolCallId, ticketId: suspended.ticket.suspension.id };
}

describe('a decision for a running run whose call already waits on its ticket', () => {
  it('a ticket id given as toolCallId is refused with the hint, not accepted', async () => {
    const { runId, ticketId } = await runningWithTicket();
    const decided = await fx.json(`/v1/runs/${runId}/decision`, {
      body: { toolCallId: ticketId, decisionId: 'as-call', result: { approved: true } },
    });
    expect(decided.status).toBe(409);
    expect(JSON.stringify(decided.body)).toContain('is a ticket id');
    expect(await memory.inbox.peek(runId)).toEqual([]);
  });

  it('a ticket of another call is refused (422), not accepted', async () => {
    const { runId, ticketId } = await runningWithTicket();
    const decided = await fx.json(`/v1/runs/${runId}/decision`, {
      body: { toolCallId: 'slow_0_1', ticketId, decisionId: 'crossed', result: { approved: true } },
    });
    expect(decided.status).toBe(422);
    expect(await memory.inbox.peek(runId)).toEqual([]);
  });
});
