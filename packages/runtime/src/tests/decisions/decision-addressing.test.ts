import { approve as approveTicket } from '@awaken/contract';
import type { ScriptedTurn } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { checkStoredDecisions } from '../../internal/decisions/check-stored-decisions';
import { approve, createHarness, until } from '../../../test-support/harness';

const calls = (...items: Array<[string, string, unknown]>) => ({
  toolCalls: items.map(([id, name, args]) => ({ id, name, arguments: args })),
});

function setup(turns: ScriptedTurn[]) {
  const danger = recordingTool('danger');
  const harness = createHarness(
    { tools: [danger.tool], plugins: [approvalPlugin(['danger'])], toolExecution: 'parallel' },
    { turns },
  );
  return { ...harness, danger };
}

describe('a decision addresses a call by tool call id or by ticket id', () => {
  it('resumes the call whose ticket a decision names; the receipt names the call', async () => {
    const { runtime, danger } = setup([calls(['a', 'danger', {}], ['b', 'danger', {}]), { text: 'ok' }]);
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const ticketOfB = first.waiting!.tickets.find((ticket) => ticket.toolCallId === 'b')!.ticketId;
    const resumed = runtime.resumeRun(first.runId, {
      decisions: [{ ticketId: ticketOfB, decisionId: 'd1', action: 'resume', updatedAt: 1 }],
    });
    expect(await resumed.receipts).toEqual([
      { toolCallId: 'b', ticketId: ticketOfB, decisionId: 'd1', status: 'accepted' },
    ]);
    expect(await resumed.result).toMatchObject({
      status: 'waiting',
      waiting: { tickets: [{ toolCallId: 'a' }] },
    });
    expect(danger.count('b')).toBe(1);
    expect(danger.count('a')).toBe(0);
  });

  it('accepts the contract helpers built from a waiting ticket or a bare ticket id', async () => {
    const { runtime, danger } = setup([calls(['a', 'danger', {}], ['b', 'danger', {}]), { text: 'ok' }]);
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const [ticketA, ticketB] = first.waiting!.tickets;
    const resumed = runtime.resumeRun(first.runId, {
      decisions: [approveTicket(ticketA!), approveTicket(ticketB!.ticketId)],
    });
    expect((await resumed.receipts).map((receipt) => [receipt.status, receipt.toolCallId])).toEqual([
      ['accepted', 'a'],
      ['accepted', 'b'],
    ]);
    expect(await resumed.result).toMatchObject({ status: 'done', response: 'ok' });
    expect(danger.count()).toBe(2);
  });

  it('rejects a decision naming a ticket of another call, or a ticket nobody waits on', async () => {
    const { runtime, danger } = setup([calls(['a', 'danger', {}], ['b', 'danger', {}]), { text: 'ok' }]);
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const ticketOfB = first.waiting!.tickets.find((ticket) => ticket.toolCallId === 'b')!.ticketId;
    const resumed = runtime.resumeRun(first.runId, {
      decisions: [
        { toolCallId: 'a', ticketId: ticketOfB, decisionId: 'd1', action: 'resume', updatedAt: 1 },
        { ticketId: 'ticket_nobody', decisionId: 'd2', action: 'resume', updatedAt: 1 },
      ],
    });
    expect(await resumed.receipts).toMatchObject([
      { status: 'rejected', reason: 'invalid_payload', toolCallId: 'a', ticketId: ticketOfB },
      { status: 'rejected', reason: 'unknown_tool_call', ticketId: 'ticket_nobody' },
    ]);
    expect(await resumed.result).toMatchObject({ status: 'waiting' });
    expect(danger.count()).toBe(0);
  });

  it('a decision bound to a ticket never answers a later call that reuses the tool call id', async () => {
    const { runtime, store, danger } = setup([
      calls(['call_0', 'danger', { path: 'scratch' }]),
      calls(['call_0', 'danger', { path: '/etc/passwd' }]),
      { text: 'ok' },
    ]);
    const handle = runtime.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
    await until(async () => (await store.getRun(handle.runId))?.status === 'waiting');
    const firstTicket = (await store.getRun(handle.runId))!.waiting!.tickets[0]!;
    expect(await handle.decide(approveTicket(firstTicket, { decisionId: 'd1' }))).toMatchObject([
      { status: 'accepted', toolCallId: 'call_0' },
    ]);
    await until(async () => {
      const waiting = (await store.getRun(handle.runId))?.waiting;
      return waiting !== undefined && waiting.tickets[0]?.ticketId !== firstTicket.ticketId;
    });
    // the same approval re-sent under a new decision id (a client retry) is refused, not redirected
    expect(await handle.decide(approveTicket(firstTicket, { decisionId: 'd2' }))).toMatchObject([
      { status: 'rejected', reason: 'unknown_tool_call' },
    ]);
    expect(danger.calls.map((call) => call.args)).toEqual([{ path: 'scratch' }]);
    await handle.decide(approve('call_0', { approved: true }, 'd3'));
    expect(await handle.result).toMatchObject({ status: 'done' });
    expect(danger.calls.map((call) => call.args)).toEqual([{ path: 'scratch' }, { path: '/etc/passwd' }]);
  });

  it('reads toolCallId as a tool call id on every path: a ticket id there is refused, nothing runs', async () => {
    const { runtime, store, danger } = setup([calls(['a', 'danger', {}]), { text: 'ok' }]);
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const ticketId = first.waiting!.tickets[0]!.ticketId;
    const misnamed = (decisionId: string) => ({
      toolCallId: ticketId,
      decisionId,
      action: 'resume' as const,
      result: { approved: true },
      updatedAt: 1,
    });
    const refused = { status: 'rejected', reason: 'unknown_tool_call', toolCallId: ticketId };
    // stored path: judged on the run's record before anything is queued
    expect(checkStoredDecisions((await store.getRun(first.runId))!, [misnamed('d0')])).toMatchObject([
      refused,
    ]);
    // runtime.decide on a run nobody holds: resumed here, judged by the activation
    const delivered = await runtime.decide(first.runId, [misnamed('d1')]);
    expect(delivered.receipts).toMatchObject([refused]);
    await delivered.handle?.result;
    // a resume carrying it, then the live activation's own gate
    const resumed = runtime.resumeRun(first.runId, { decisions: [misnamed('d2')], onSuspend: 'wait' });
    expect(await resumed.receipts).toMatchObject([refused]);
    await until(async () => (await store.getRun(first.runId))?.status === 'waiting');
    expect(await resumed.decide(misnamed('d3'))).toMatchObject([refused]);
    expect(danger.count()).toBe(0);
    expect(await resumed.decide({ ...misnamed('d4'), toolCallId: undefined, ticketId })).toMatchObject([
      { status: 'accepted', toolCallId: 'a', ticketId },
    ]);
    expect(await resumed.result).toMatchObject({ status: 'done' });
    expect(danger.count()).toBe(1);
  });
});
