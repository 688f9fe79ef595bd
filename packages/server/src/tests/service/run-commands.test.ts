import { randomUUID } from 'node:crypto';
import { type RunWaitingTicket, answer } from '@awaken/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Counters, memoryCounters } from '../../../test-support/counters';
import { AGENT_ID, scenarioAgent } from '../../../test-support/scenario-agent';
import { WAIT, decisionFor, events, untilStatus } from '../../../test-support/suite-helpers';
import { FAST } from '../../../test-support/worker-config';
import { createMailboxService } from '../../create-mailbox-service';
import type { MailboxService } from '../../types';

describe('run commands (memory)', () => {
  let counters: Counters;
  let service: MailboxService;
  beforeEach(async () => {
    counters = memoryCounters();
    service = createMailboxService({ agents: [scenarioAgent(counters)], ...FAST });
    await service.start();
  });
  afterEach(() => service.stop({ graceMs: 2_000 }));

  async function waitingRun(input = 'approve:2') {
    const submitted = await service.submit({ agentId: AGENT_ID, input: `${input} #${randomUUID()}` });
    const waiting = await untilStatus(service.stores, submitted.runId, ['waiting']);
    return { ...submitted, tickets: waiting.waiting?.tickets ?? [] };
  }

  it('reports the thread’s active run while it executes, its open run with tickets while it waits, none when done', async () => {
    const run = await service.submit({ agentId: AGENT_ID, input: `approve:1 slow:300 #${randomUUID()}` });
    await untilStatus(service.stores, run.runId, ['running']);
    expect(await service.commands.getActiveRun(run.threadId)).toMatchObject({
      runId: run.runId,
      kind: 'active',
    });
    const waiting = await untilStatus(service.stores, run.runId, ['waiting']);
    const open = await service.commands.getActiveRun(run.threadId);
    expect(open).toMatchObject({ runId: run.runId, kind: 'open', tickets: waiting.waiting?.tickets });
    await service.commands.cancelRun(run.runId, 'no');
    expect(await service.commands.getActiveRun(run.threadId)).toBeNull();
    await expect(service.commands.getActiveRun('no-such-thread')).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('answers each decision of a batch with its own receipt, never redirecting one', async () => {
    const run = await waitingRun();
    const [first, second] = run.tickets as [RunWaitingTicket, RunWaitingTicket];
    const { toolCallId: _call, ...byTicket } = {
      ...decisionFor(run.runId, second, false),
      ticketId: second.ticketId,
    };
    // a ticket id given as the tool call id names no call: refused with a hint, never looked up
    const misnamed = {
      ...decisionFor(run.runId, second, true),
      decisionId: 'misnamed',
      toolCallId: second.ticketId,
    };
    const result = await service.commands.decide({ runId: run.runId }, [
      decisionFor(run.runId, first, true),
      misnamed,
      byTicket,
      { ...decisionFor(run.runId, first, true), decisionId: 'other', toolCallId: 'nope' },
      { toolCallId: first.toolCallId, action: 'resume' } as never,
    ]);
    expect(result.receipts).toMatchObject([
      { status: 'accepted', toolCallId: first.toolCallId },
      {
        status: 'rejected',
        reason: 'unknown_tool_call',
        message: expect.stringContaining('send it as ticketId'),
      },
      { status: 'accepted', toolCallId: second.toolCallId },
      { status: 'rejected', reason: 'unknown_tool_call' },
      { status: 'rejected', reason: 'invalid_payload' },
    ]);
    const done = await untilStatus(service.stores, run.runId, ['done']);
    expect(done.response).toBe('done after 2 results');
    expect(await counters.get(`exec:${run.runId}:${first.toolCallId}`)).toBe(1);
    expect(await counters.get(`exec:${run.runId}:${second.toolCallId}`)).toBe(0);
    // re-sent once the run finished: applied already, so a duplicate; a new decision comes too late
    const again = await service.commands.decide({ runId: run.runId }, [
      decisionFor(run.runId, first, true),
      { ...decisionFor(run.runId, first, false), decisionId: 'too-late' },
    ]);
    expect(again.receipts).toEqual([
      { toolCallId: first.toolCallId, decisionId: `${run.runId}:${first.toolCallId}`, status: 'duplicate' },
      expect.objectContaining({ decisionId: 'too-late', status: 'rejected', reason: 'run_finished' }),
    ]);
  });

  it('answers duplicate to a decision re-sent while the resumed run executes, queuing nothing', async () => {
    const run = await waitingRun('approve:1 then slow:5000');
    const [first] = run.tickets as [RunWaitingTicket];
    const decision = decisionFor(run.runId, first, true);
    expect((await service.commands.decide({ runId: run.runId }, decision)).receipts).toMatchObject([
      { status: 'accepted' },
    ]);
    await vi.waitFor(async () => expect(await counters.get(`slow-started:${run.runId}`)).toBe(1), WAIT);
    await vi.waitFor(async () => expect(await service.stores.inbox.peek(run.runId)).toEqual([]), WAIT);
    const resent = await service.commands.decide({ runId: run.runId }, decision);
    expect(resent.receipts).toEqual([
      { toolCallId: first.toolCallId, decisionId: decision.decisionId, status: 'duplicate' },
    ]);
    expect(await service.stores.inbox.peek(run.runId)).toEqual([]);
    await service.commands.cancelRun(run.runId, 'done testing');
    expect(await counters.get(`exec:${run.runId}:${first.toolCallId}`)).toBe(1);
  });

  it('rejects a decision for a call that is no longer suspended, and treats its re-send as a duplicate', async () => {
    const run = await waitingRun('approve:2');
    const [first] = run.tickets as [RunWaitingTicket];
    await service.commands.decide({ threadId: run.threadId }, decisionFor(run.runId, first, true));
    await vi.waitFor(async () => {
      const current = await service.stores.threadRuns.getRun(run.runId);
      expect(current?.waiting?.tickets.map((ticket) => ticket.toolCallId)).toEqual([
        run.tickets[1]?.toolCallId,
      ]);
    }, WAIT);
    const resent = await service.commands.decide({ runId: run.runId }, decisionFor(run.runId, first, true));
    expect(resent.receipts).toMatchObject([{ status: 'duplicate' }]);
    expect(resent.resumeDispatchId).toBeUndefined();
    const changed = await service.commands.decide(
      { runId: run.runId },
      { ...decisionFor(run.runId, first, false), decisionId: 'a-different-decision' },
    );
    expect(changed.receipts).toMatchObject([{ status: 'rejected', reason: 'not_suspended' }]);
    expect(await counters.get(`exec:${run.runId}:${first.toolCallId}`)).toBe(1);
  });

  it('runs a client tool declared by the request, answered by ticket, with the caller context on the run', async () => {
    const submitted = await service.submit({
      agentId: AGENT_ID,
      input: `client #${randomUUID()}`,
      context: { user: 'ada', tenant: 't1' },
      tools: [{ name: 'pick_color', description: 'the user picks a colour', parameters: { type: 'object' } }],
    });
    const waiting = await submitted.settled();
    expect(waiting.context).toEqual({ user: 'ada', tenant: 't1' });
    const [ticket] = waiting.waiting?.tickets ?? [];
    if (!ticket) throw new Error('the client tool did not wait');
    const byTicket = { ...answer(ticket.ticketId, { color: 'teal' }), decisionId: 'client-answer' };
    const decided = await service.commands.decide({ threadId: submitted.threadId }, byTicket);
    expect(decided.receipts).toMatchObject([{ status: 'accepted', toolCallId: ticket.toolCallId }]);
    const done = await submitted.done();
    expect(done.response).toBe('done after 1 results');
    const messages = await service.stores.threadRuns.readMessages(submitted.threadId);
    const result = messages.find((entry) => entry.message.role === 'tool')?.message;
    expect(result).toMatchObject({ toolCallId: ticket.toolCallId });
    expect(JSON.stringify(result)).toContain('teal');
  });

  it('refuses bad requests with typed errors before writing anything', async () => {
    await expect(service.submit({ agentId: 'nobody', threadId: 'bad-1', input: 'x' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(service.submit({ agentId: AGENT_ID, threadId: 'bad-2', input: '' })).rejects.toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('input'),
    });
    await expect(
      service.submit({ agentId: AGENT_ID, threadId: 'bad-3', input: 'x', priority: 999 }),
    ).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringContaining('priority') });
    for (const threadId of ['bad-1', 'bad-2', 'bad-3']) {
      expect(await service.stores.threadRuns.getThread(threadId)).toBeNull();
    }
    await expect(service.commands.decide({ runId: 'nope' }, [])).rejects.toMatchObject({
      code: 'validation_failed',
    });
    await expect(
      service.commands.decide(
        { runId: 'nope' },
        { toolCallId: 'a', decisionId: 'b', action: 'resume', updatedAt: 1 },
      ),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.commands.cancelRun('nope')).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.commands.interruptThread('nope')).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      service.commands.injectUserInput({ threadId: 'nope', input: 'x', mode: 'sideways' as never }),
    ).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringContaining('mode') });
  });

  it('refuses a new run beside a waiting one unless asked to interrupt, which cancels the waiting run', async () => {
    const run = await waitingRun('approve:1');
    const next = { agentId: AGENT_ID, threadId: run.threadId, input: `plain #${randomUUID()}` };
    await expect(service.submit({ ...next, mode: 'background' })).rejects.toMatchObject({
      code: 'conflict',
      details: { openRunId: run.runId },
    });
    const latest = await service.submit({ ...next, ifBusy: 'interrupt' });
    expect((await latest.settled()).response).toBe('done after 1 results');
    const cancelled = await service.stores.threadRuns.getRun(run.runId);
    expect(cancelled).toMatchObject({ status: 'done', termination: { type: 'cancelled' } });
    expect(await counters.get(`exec:${run.runId}:${run.tickets[0]?.toolCallId}`)).toBe(0);
  });

  it('cancels a waiting run idempotently', async () => {
    const run = await waitingRun('approve:1');
    const first = await service.commands.cancelRun(run.runId, 'changed my mind');
    expect(first).toMatchObject({
      status: 'done',
      termination: { type: 'cancelled', reason: 'changed my mind' },
    });
    expect(await service.commands.cancelRun(run.runId, 'again')).toEqual(first);
  });

  it('input steered into a run that then suspends waits for the answer: the run is resumed once, not without end', async () => {
    const run = await service.submit({ agentId: AGENT_ID, input: `slow:300 approve:1 #${randomUUID()}` });
    await vi.waitFor(async () => expect(await counters.get(`slow-started:${run.runId}`)).toBe(1), WAIT);
    const steered = await service.commands.injectUserInput({
      threadId: run.threadId,
      mode: 'steer',
      input: `plain #${randomUUID()}`,
    });
    expect(steered).toMatchObject({ mode: 'steer', runId: run.runId });
    // the input came during the tool round: the run suspends on its ticket with the input unapplied
    const waiting = await untilStatus(service.stores, run.runId, ['waiting']);
    const [ticket] = waiting.waiting?.tickets ?? [];
    if (!ticket) throw new Error('no ticket');
    await service.commands.decide({ runId: run.runId }, [decisionFor(run.runId, ticket, true)]);
    const done = await untilStatus(service.stores, run.runId, ['done']);
    // the steered input joined after the answered step (without it: 'done after 2 results'), and
    // the model answered it with its one `plain` call
    expect(done.response).toBe('done after 1 results');
    const starts = (await events(service.stores, run.runId)).filter((event) => event.type === 'run_start');
    // the first activation, and the resume with the answer: no resume for the input on its own
    expect(starts).toHaveLength(2);
  });
});
