import { describe, expect, it } from 'vitest';
import { RUN_STATE_PATHS } from '../run/run-state-paths';
import type { ToolCallState } from '../tool/tool-call-state';
import type { DecisionView } from './decision-view';
import { decisionRecordOf, readDecisionRecords, runStarterOf } from './decision-record';
import { decisionViewOf } from './decision-view';
import { judgeDecision } from './judge-decision';

function waiting(fourEyes = false): ToolCallState {
  return {
    callId: 'a',
    toolName: 'pay',
    arguments: { amount: 10 },
    status: 'suspended',
    step: 1,
    index: 0,
    resultCommitted: false,
    executions: 0,
    updatedAt: 1,
    ticket: {
      suspension: {
        id: 't-a',
        action: 'confirm',
        message: 'Pay 10?',
        ...(fourEyes ? { requiresDistinctApprover: true } : {}),
      },
      pending: { id: 'a', name: 'pay', arguments: { amount: 10 } },
      resumeMode: 'replay_tool_call',
    },
  };
}

const view = (fourEyes: boolean, startedBy?: string): DecisionView => ({
  runId: 'r',
  status: 'waiting',
  calls: [waiting(fourEyes)],
  applied: new Set(),
  pending: [],
  ...(startedBy === undefined ? {} : { startedBy }),
});

const approval = (decidedBy?: string, action: 'resume' | 'cancel' = 'resume') => ({
  ticketId: 't-a',
  decisionId: `d-${decidedBy}-${action}`,
  action,
  result: { approved: action === 'resume' },
  updatedAt: 5,
  ...(decidedBy === undefined ? {} : { decidedBy }),
});

describe('four-eyes in the decision judge', () => {
  it('refuses the subject who started the run, approving or cancelling, naming them', () => {
    for (const action of ['resume', 'cancel'] as const) {
      const { receipt } = judgeDecision(view(true, 'alice'), approval('alice', action));
      expect(receipt).toMatchObject({ status: 'rejected', reason: 'self_approval_forbidden' });
      expect(receipt.status === 'rejected' && receipt.message).toContain('alice');
    }
  });

  it('refuses a decision that names no approver', () => {
    const { receipt } = judgeDecision(view(true, 'alice'), approval(undefined));
    expect(receipt).toMatchObject({ status: 'rejected', reason: 'self_approval_forbidden' });
  });

  it('accepts another identified subject, and anyone on a ticket without the rule', () => {
    expect(judgeDecision(view(true, 'alice'), approval('bob')).receipt.status).toBe('accepted');
    expect(judgeDecision(view(false, 'alice'), approval('alice')).receipt.status).toBe('accepted');
    expect(judgeDecision(view(false), approval(undefined)).receipt.status).toBe('accepted');
  });

  it('reads the starter from the stored run context (caller.subject set by the server)', () => {
    const record = {
      runId: 'r',
      status: 'waiting' as const,
      state: {},
      context: { caller: { subject: 'alice', tenant: 'acme' } },
    };
    expect(runStarterOf(record)).toBe('alice');
    expect(decisionViewOf(record).startedBy).toBe('alice');
    expect(runStarterOf({ context: { caller: 'alice' } })).toBeUndefined();
    expect(runStarterOf({})).toBeUndefined();
  });
});

describe('decision records', () => {
  it('keep what was shown and what was answered, with who, when and how', () => {
    const decision = {
      ...approval('bob'),
      toolCallId: 'a',
      channel: 'link' as const,
      result: { approved: true, reason: 'ok', editedArguments: { amount: 5 } },
    };
    expect(decisionRecordOf(waiting(), decision, 9)).toEqual({
      decisionId: decision.decisionId,
      toolCallId: 'a',
      ticketId: 't-a',
      decidedBy: 'bob',
      channel: 'link',
      decidedAt: 5,
      appliedAt: 9,
      shown: { toolName: 'pay', arguments: { amount: 10 }, action: 'confirm', message: 'Pay 10?' },
      answer: { action: 'resume', approved: true, reason: 'ok', editedArguments: { amount: 5 } },
    });
  });

  it('record a cancel as not approved, and a non-approval answer as its result', () => {
    const cancel = { ...approval('bob', 'cancel'), toolCallId: 'a', reason: 'no', result: undefined };
    expect(decisionRecordOf(waiting(), cancel, 9).answer).toEqual({
      action: 'cancel',
      approved: false,
      reason: 'no',
    });
    const output = { ...approval('bob'), toolCallId: 'a', result: { color: 'red' } };
    expect(decisionRecordOf(waiting(), output, 9).answer).toEqual({
      action: 'resume',
      result: { color: 'red' },
    });
  });

  it('are read back from the run state, skipping an entry that does not parse', () => {
    const good = decisionRecordOf(waiting(), { ...approval('bob'), toolCallId: 'a' }, 9);
    const state = { [RUN_STATE_PATHS.decisionRecords]: [good, { decisionId: 7 }] };
    expect(readDecisionRecords({ state })).toEqual([good]);
    expect(readDecisionRecords({ state: {} })).toEqual([]);
  });
});
