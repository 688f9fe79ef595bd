import {
  createMemoryRunControlInbox,
  createMemoryRunEventLog,
  createMemoryThreadRunStore,
} from '@awaken/store-memory';
import { createControllableTool, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approvalPlugin } from '../../../test-support/approval';
import { approve } from '../../../test-support/harness';
import { callsThenAnswer } from '../../../test-support/shared-stores';
import { createAgentRuntime } from '../../create-agent-runtime';

/**
 * A parallel round suspends calls a and b; a is approved and
 * executes (the run is stored `running`, b stored `suspended` on its ticket). From another runtime on
 * the same stores, a decision the stored copy already proves wrong must be refused, never
 * `accepted`: a ticket id given as toolCallId, a ticket of another call, a result failing the
 * ticket's response schema.
 */
function setup() {
  const store = createMemoryThreadRunStore();
  const eventLog = createMemoryRunEventLog();
  const inbox = createMemoryRunControlInbox();
  const danger = createControllableTool('danger');
  const schema = { type: 'object', properties: { approved: { type: 'boolean' } }, required: ['approved'] };
  const runtime = () =>
    createAgentRuntime({
      agents: [
        {
          id: 'agent',
          model: createScriptedModel(
            callsThenAnswer([
              { id: 'a', name: 'danger' },
              { id: 'b', name: 'danger' },
            ]),
          ),
          tools: [danger.tool],
          toolExecution: 'parallel',
          plugins: [approvalPlugin(['danger'], schema)],
        },
      ],
      stores: { threadRuns: store, eventLog, inbox },
    });
  return { store, inbox, danger, runtime };
}

describe('final refusals on a run executing elsewhere', () => {
  it('are refused with their reason, nothing queued', async () => {
    const s = setup();
    const live = s
      .runtime()
      .run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' });
    const waiting = await expect
      .poll(async () => (await s.store.getRun('r'))?.waiting?.tickets.length)
      .toBe(2);
    void waiting;
    const tickets = (await s.store.getRun('r'))!.waiting!.tickets;
    const ticketOf = (id: string) => tickets.find((ticket) => ticket.toolCallId === id)!.ticketId;
    expect((await live.decide(approve('a')))[0]?.status).toBe('accepted');
    await s.danger.started('a');
    await expect.poll(async () => (await s.store.getRun('r'))?.status).toBe('running');
    const other = s.runtime();
    const delivered = await other.decide('r', [
      approve(ticketOf('b'), { approved: true }, 'ticket-as-call'),
      {
        ticketId: ticketOf('b'),
        toolCallId: 'a',
        decisionId: 'crossed',
        action: 'resume',
        result: { approved: true },
        updatedAt: 1,
      },
      {
        ticketId: ticketOf('b'),
        decisionId: 'bad-schema',
        action: 'resume',
        result: { approved: 'yes' },
        updatedAt: 1,
      },
    ]);
    expect(delivered.receipts).toEqual([
      expect.objectContaining({
        status: 'rejected',
        reason: 'unknown_tool_call',
        message: expect.stringContaining('is a ticket id'),
      }),
      expect.objectContaining({ status: 'rejected', reason: 'invalid_payload' }),
      expect.objectContaining({ status: 'rejected', reason: 'invalid_payload' }),
    ]);
    expect(await s.inbox.peek('r')).toEqual([]);
    s.danger.release('a', { ok: 1 });
    live.cancel();
    await live.result;
  });
});
