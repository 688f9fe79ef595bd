import { describe, expect, it } from 'vitest';
import type { ToolCallState } from '../tool/tool-call-state';
import type { DecisionView } from './decision-view';
import { indeterminateSuspension } from './indeterminate';
import { judgeDecision } from './judge-decision';
import { ticketExpiresAt } from './ticket-expiry';

function call(extra: Partial<ToolCallState> = {}, expiresAt: number | null = 1_000): ToolCallState {
  return {
    callId: 'a',
    toolName: 'pay',
    status: 'suspended',
    step: 1,
    index: 0,
    resultCommitted: false,
    executions: 0,
    updatedAt: 1,
    ticket: {
      suspension: { id: 't', action: 'confirm', message: 'Pay?' },
      pending: { id: 'a', name: 'pay' },
      resumeMode: 'replay_tool_call',
      ...(expiresAt === null ? {} : { expiresAt }),
    },
    ...extra,
  };
}

const view = (calls: ToolCallState[], now?: number): DecisionView => ({
  runId: 'r',
  status: 'waiting',
  calls,
  applied: new Set(),
  pending: [],
  ...(now === undefined ? {} : { now }),
});

const yes = { ticketId: 't', decisionId: 'd1', action: 'resume', result: { approved: true }, updatedAt: 2 };

describe('judgeDecision and expiry', () => {
  it('accepts before expiresAt and refuses ticket_expired at and after it', () => {
    expect(judgeDecision(view([call()], 999), yes).receipt.status).toBe('accepted');
    for (const now of [1_000, 5_000]) {
      expect(judgeDecision(view([call()], now), yes).receipt).toMatchObject({
        status: 'rejected',
        reason: 'ticket_expired',
        toolCallId: 'a',
      });
    }
  });

  it('a call already resolved as expired refuses ticket_expired, not not_suspended', () => {
    expect(judgeDecision(view([call({ status: 'expired' })]), yes).receipt).toMatchObject({
      reason: 'ticket_expired',
    });
  });

  it('without now (an answer accepted before), or without expiresAt, nothing expires', () => {
    expect(judgeDecision(view([call()]), yes).receipt.status).toBe('accepted');
    expect(judgeDecision(view([call({}, null)], 10 ** 12), yes).receipt.status).toBe('accepted');
  });

  it('a repeat of an applied decision stays a duplicate after expiry', () => {
    const applied = call({
      status: 'succeeded',
      resume: { decisionId: 'd1', action: 'resume', updatedAt: 2 },
    });
    expect(judgeDecision(view([applied], 5_000), yes).receipt.status).toBe('duplicate');
  });

  it('ticketExpiresAt takes the first timeout set', () => {
    expect(ticketExpiresAt(100, undefined, 50, 10)).toBe(150);
    expect(ticketExpiresAt(100, undefined, undefined)).toBeUndefined();
  });

  it('an indeterminate ticket only takes an answer of its schema', () => {
    const suspension = indeterminateSuspension({ callId: 'a', toolName: 'pay', step: 1 });
    const waiting = call({
      ticket: { suspension, pending: { id: 'a', name: 'pay' }, resumeMode: 'replay_tool_call' },
    });
    const answer = (result: unknown) => ({ ...yes, ticketId: suspension.id, result });
    expect(judgeDecision(view([waiting]), answer({ outcome: 'retry' })).receipt.status).toBe('accepted');
    expect(
      judgeDecision(view([waiting]), answer({ outcome: 'result', result: { id: 7 } })).receipt.status,
    ).toBe('accepted');
    expect(judgeDecision(view([waiting]), answer({ approved: true })).receipt).toMatchObject({
      reason: 'invalid_payload',
    });
  });
});
