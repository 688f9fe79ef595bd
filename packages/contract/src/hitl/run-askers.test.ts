import { describe, expect, it } from 'vitest';
import { RUNTIME_STATE_PATH } from '../run/run-state-paths';
import type { ToolCallState } from '../tool/tool-call-state';
import { decisionRecordOf } from './decision-record';
import { decisionViewOf } from './decision-view';
import { judgeDecision } from './judge-decision';
import { runAskersOf } from './run-askers';

const fourEyesCall: ToolCallState = {
  callId: 'a',
  toolName: 'delete_file',
  arguments: { path: '/srv/x' },
  status: 'suspended',
  step: 1,
  index: 0,
  resultCommitted: false,
  executions: 0,
  updatedAt: 1,
  ticket: {
    suspension: { id: 't-a', action: 'confirm', message: 'Delete?', requiresDistinctApprover: true },
    pending: { id: 'a', name: 'delete_file', arguments: { path: '/srv/x' } },
    resumeMode: 'replay_tool_call',
  },
};

/** A run Bob started, that Alice steered (the runtime's list) and the server listed Dana for. */
const record = {
  runId: 'r',
  status: 'waiting' as const,
  context: { caller: { tenant: 'acme', subject: 'bob' }, askers: ['dana', 7, ''] },
  state: {
    [RUNTIME_STATE_PATH]: { askers: ['alice', 'bob'] },
    __tool_call_scope: { a: { tool_call_state: fourEyesCall } },
  },
};

const approval = (decidedBy: string, issuedBy?: string) => ({
  ticketId: 't-a',
  decisionId: `d-${decidedBy}-${issuedBy}`,
  action: 'resume' as const,
  result: { approved: true },
  updatedAt: 5,
  decidedBy,
  ...(issuedBy === undefined ? {} : { issuedBy }),
});

describe('the askers of a run', () => {
  it('are its starter, the subjects its context lists and the ones the runtime recorded, each once', () => {
    expect(runAskersOf(record)).toEqual(['bob', 'dana', 'alice']);
    expect(runAskersOf({ state: {} })).toEqual([]);
    expect([...(decisionViewOf(record).askers ?? [])]).toEqual(['bob', 'dana', 'alice']);
  });

  it('may not approve a four-eyes ticket, whoever of them it is; someone else may', () => {
    for (const who of ['bob', 'alice', 'dana']) {
      const { receipt } = judgeDecision(decisionViewOf(record), approval(who));
      expect(receipt).toMatchObject({ status: 'rejected', reason: 'self_approval_forbidden' });
      expect(receipt.status === 'rejected' && receipt.message).toContain(who);
    }
    expect(judgeDecision(decisionViewOf(record), approval('carol')).receipt.status).toBe('accepted');
  });

  it('may not vouch for an approver through a link they issued; a link another person issued works', () => {
    const { receipt } = judgeDecision(decisionViewOf(record), approval('carol', 'alice'));
    expect(receipt).toMatchObject({ status: 'rejected', reason: 'self_approval_forbidden' });
    expect(receipt.status === 'rejected' && receipt.message).toContain('issued by alice');
    expect(judgeDecision(decisionViewOf(record), approval('carol', 'erin')).receipt.status).toBe('accepted');
  });

  it('the audit record keeps who issued the link as well as the approver it names', () => {
    const decision = { ...approval('carol', 'erin'), toolCallId: 'a', channel: 'link' as const };
    expect(decisionRecordOf(fourEyesCall, decision, 9)).toMatchObject({
      decidedBy: 'carol',
      issuedBy: 'erin',
      channel: 'link',
    });
  });
});
