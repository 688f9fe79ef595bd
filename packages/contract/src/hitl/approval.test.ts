import { describe, expect, it } from 'vitest';
import { answer, approvalPayloadSchema, approve, deny, readApproval } from './approval';
import { toolCallDecisionInputSchema } from './decision';
import type { SuspendTicket } from './suspension';

const waitingTicket = { ticketId: 'permission:1:call_0', toolCallId: 'call_0' };
const eventTicket: SuspendTicket = {
  suspension: { id: 'permission:2:call_0', action: 'confirm', message: 'ok?' },
  pending: { id: 'call_0', name: 'bash', arguments: { command: 'ls' } },
  resumeMode: 'replay_tool_call',
};

describe('decision helpers', () => {
  it('build complete decisions, naming both the ticket and the call when the ticket says', () => {
    const decision = approve(waitingTicket);
    expect(toolCallDecisionInputSchema.parse(decision)).toEqual(decision);
    expect(decision).toMatchObject({
      ticketId: 'permission:1:call_0',
      toolCallId: 'call_0',
      action: 'resume',
      result: { approved: true },
    });
    expect(decision.decisionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(decision.updatedAt).toBeGreaterThan(0);
    expect(approve(eventTicket)).toMatchObject({ ticketId: 'permission:2:call_0', toolCallId: 'call_0' });
    expect(approve('aitxt-123')).toMatchObject({ ticketId: 'aitxt-123' });
    expect(approve('aitxt-123')).not.toHaveProperty('toolCallId');
    expect(approve(waitingTicket).decisionId).not.toBe(approve(waitingTicket).decisionId);
  });

  it('approve carries edited arguments, a reason and who decided', () => {
    const decision = approve(waitingTicket, {
      editedArguments: { command: 'ls -la' },
      reason: 'looks fine',
      decisionId: 'd1',
      updatedAt: 5,
      context: { user: 'ada' },
    });
    expect(decision).toEqual({
      ticketId: 'permission:1:call_0',
      toolCallId: 'call_0',
      decisionId: 'd1',
      updatedAt: 5,
      context: { user: 'ada' },
      action: 'resume',
      reason: 'looks fine',
      result: { approved: true, reason: 'looks fine', editedArguments: { command: 'ls -la' } },
    });
  });

  it('approve adds the extra payload fields a plugin reads, never overriding approved', () => {
    expect(approve(waitingTicket, { extra: { remember: 'always', approved: false } }).result).toEqual({
      remember: 'always',
      approved: true,
    });
  });

  it('deny cancels the call (no plugin can mistake it for a go) and says why', () => {
    expect(deny(waitingTicket, 'not today', { decisionId: 'd2', updatedAt: 1 })).toEqual({
      ticketId: 'permission:1:call_0',
      toolCallId: 'call_0',
      decisionId: 'd2',
      updatedAt: 1,
      action: 'cancel',
      reason: 'not today',
      result: { approved: false, reason: 'not today' },
    });
  });

  it('answer resumes with the given value as the result', () => {
    expect(answer(eventTicket, { city: 'Paris' }, { decisionId: 'd3', updatedAt: 2 })).toEqual({
      ticketId: 'permission:2:call_0',
      toolCallId: 'call_0',
      decisionId: 'd3',
      updatedAt: 2,
      action: 'resume',
      result: { city: 'Paris' },
    });
  });

  it('reads an approval payload, keeping extra fields, and refuses anything else', () => {
    expect(readApproval({ approved: true, remember: 'always' })).toEqual({
      approved: true,
      remember: 'always',
    });
    expect(readApproval(true)).toBeUndefined();
    expect(readApproval({ ok: 1 })).toBeUndefined();
    expect(approvalPayloadSchema.safeParse({ approved: 'yes' }).success).toBe(false);
  });

  it('a decision input must name a call or a ticket', () => {
    const { toolCallId: _omitted, ...rest } = approve(waitingTicket);
    const { ticketId: _alsoOmitted, ...neither } = rest;
    expect(toolCallDecisionInputSchema.safeParse(rest).success).toBe(true);
    expect(toolCallDecisionInputSchema.safeParse(neither).success).toBe(false);
  });
});
