import { randomUUID } from 'node:crypto';
import type { RunWaitingTicket } from '@awaken/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryCounters } from '../../../test-support/counters';
import { AGENT_ID, scenarioAgent } from '../../../test-support/scenario-agent';
import { decisionFor, record, untilStatus } from '../../../test-support/suite-helpers';
import { FAST } from '../../../test-support/worker-config';
import { createMailboxService } from '../../create-mailbox-service';
import type { MailboxService } from '../../types';

describe('decide with decisions a door already judged (prejudged)', () => {
  let service: MailboxService;
  beforeEach(async () => {
    service = createMailboxService({ agents: [scenarioAgent(memoryCounters())], ...FAST });
    await service.start();
  });
  afterEach(() => service.stop({ graceMs: 2_000 }));

  async function waitingRun() {
    const submitted = await service.submit({ agentId: AGENT_ID, input: `approve:1 #${randomUUID()}` });
    const waiting = await untilStatus(service.stores, submitted.runId, ['waiting']);
    const [ticket] = waiting.waiting?.tickets ?? [];
    return { runId: submitted.runId, version: waiting.version, ticket: ticket as RunWaitingTicket };
  }

  it('judges afresh a decision named prejudged on another version of the run', async () => {
    const run = await waitingRun();
    // judged (by nobody) on a version the run no longer stands at: the service judges it itself
    // a ticket named with another call: only the judge refuses it as such (`invalid_payload`)
    const malformed = {
      ...decisionFor(run.runId, run.ticket, true),
      ticketId: run.ticket.ticketId,
      toolCallId: 'no-such-call',
    };
    const stale = await service.commands.decide({ runId: run.runId }, [malformed], {
      prejudged: { version: run.version - 1, decisionIds: new Set([malformed.decisionId]) },
    });
    expect(stale.receipts).toMatchObject([{ status: 'rejected', reason: 'invalid_payload' }]);
    expect((await record(service.stores, run.runId)).status).toBe('waiting');
  });

  it('takes a prejudged decision at the version judged and applies it once', async () => {
    const run = await waitingRun();
    const decision = { ...decisionFor(run.runId, run.ticket, true), ticketId: run.ticket.ticketId };
    const prejudged = { version: run.version, decisionIds: new Set([decision.decisionId]) };
    const result = await service.commands.decide({ runId: run.runId }, [decision], { prejudged });
    expect(result.receipts).toMatchObject([{ status: 'accepted', toolCallId: run.ticket.toolCallId }]);
    // sent again, named prejudged on the version it was judged at: the inbox and the run still hold it once
    const again = await service.commands.decide({ runId: run.runId }, [decision], { prejudged });
    expect(again.receipts).toMatchObject([{ status: 'duplicate' }]);
    const done = await untilStatus(service.stores, run.runId, ['done']);
    expect(done.termination?.type).not.toBe('error');
  });
});
