import {
  createMemoryRunControlInbox,
  createMemoryRunEventLog,
  createMemoryThreadRunStore,
} from '@awaken/store-memory';
import { createControllableTool, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approvalPlugin } from '../../../test-support/approval';
import { approve } from '../../../test-support/harness';
import { createAgentRuntime } from '../../create-agent-runtime';

/**
 * A decision for a run that is executing, naming a call (or a ticket) that does not exist yet: a
 * client "pre-approves" call `a` (or its predictable ticket `ticket_2:a`) while the run is still in
 * its first tool round — before the model has even produced call `a`. It is refused at once (the
 * stored run shows no such question), never kept for later and applied when the question comes.
 *
 * What this test requires: the gated tool does not run without an answer given after its question.
 */
function setup() {
  const store = createMemoryThreadRunStore();
  const eventLog = createMemoryRunEventLog();
  const inbox = createMemoryRunControlInbox();
  const work = createControllableTool('work');
  const danger = createControllableTool('danger');
  const runtime = () =>
    createAgentRuntime({
      agents: [
        {
          id: 'agent',
          model: createScriptedModel((request) => {
            const results = request.messages.filter((message) => message.role === 'tool').length;
            if (results === 0) return { toolCalls: [{ id: 'w', name: 'work', arguments: {} }] };
            if (results === 1) return { toolCalls: [{ id: 'a', name: 'danger', arguments: { rm: '-rf' } }] };
            return { text: 'done' };
          }),
          tools: [work.tool, danger.tool],
          plugins: [approvalPlugin(['danger'])],
        },
      ],
      stores: { threadRuns: store, eventLog, inbox },
    });
  return { store, inbox, work, danger, runtime };
}

describe('a decision sent before its question exists', () => {
  for (const [label, decision] of [
    ['by tool call id', approve('a', { approved: true }, 'early')],
    [
      'by a guessed ticket id',
      {
        ticketId: 'ticket_2:a',
        decisionId: 'early',
        action: 'resume',
        result: { approved: true },
        updatedAt: 1,
      },
    ],
  ] as const) {
    it(`${label}: is not applied to the question when it is asked later`, async () => {
      const s = setup();
      const live = s
        .runtime()
        .run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' });
      await s.work.started('w');
      await expect.poll(async () => (await s.store.getRun('r'))?.status).toBe('running');
      const early = await s.runtime().decide('r', [decision as never]);
      s.work.release('w', { ok: 1 });
      await expect
        .poll(async () => (await s.store.getRun('r'))?.waiting?.tickets.length ?? 0, { timeout: 2_000 })
        .toBe(1)
        .catch(() => {});
      const executed = s.danger.executions('a');
      const inboxNow = await s.inbox.peek('r');
      const record = await s.store.getRun('r');
      live.cancel();
      s.danger.release('a', { ok: 1 });
      await live.result;
      console.log(
        label,
        JSON.stringify({
          receipt: early.receipts[0],
          executed,
          inboxNow,
          status: record?.status,
          tickets: record?.waiting?.tickets.map((t) => t.ticketId),
        }),
      );
      // held: the early approval is not applied to the question asked later
      expect(executed).toBe(0);
      expect(record?.waiting?.tickets).toHaveLength(1);
      // the promise: `accepted` only if applied — this one was accepted and never applied
      expect(early.receipts[0]?.status).not.toBe('accepted');
    });
  }
});
