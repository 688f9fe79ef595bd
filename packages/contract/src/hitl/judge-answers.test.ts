import { describe, expect, it } from 'vitest';
import type { ToolCallState } from '../tool/tool-call-state';
import { APPROVAL_PAYLOAD_JSON_SCHEMA } from './approval';
import { indeterminateSuspension } from './indeterminate';
import type { ToolCallDecision } from './decision';
import type { DecisionView } from './decision-view';
import { judgeAnswers } from './judge-answers';
import type { TicketAnswer } from './ticket-answer';

function approval(callId: string, extra: Partial<ToolCallState> = {}): ToolCallState {
  return {
    callId,
    toolName: 'delete_file',
    arguments: { path: `/tmp/${callId}` },
    status: 'suspended',
    step: 1,
    index: 0,
    resultCommitted: false,
    executions: 0,
    updatedAt: 1,
    ticket: {
      suspension: {
        id: `permission:1:${callId}`,
        action: 'confirm',
        message: 'Delete?',
        responseSchema: APPROVAL_PAYLOAD_JSON_SCHEMA,
      },
      pending: { id: callId, name: 'delete_file', arguments: { path: `/tmp/${callId}` } },
      resumeMode: 'replay_tool_call',
    },
    ...extra,
  };
}

function clientTool(callId: string): ToolCallState {
  return {
    ...approval(callId),
    toolName: 'choose_color',
    arguments: {},
    ticket: {
      suspension: { id: `client:${callId}`, action: 'client_tool', message: 'Pick' },
      pending: { id: callId, name: 'choose_color', arguments: {} },
      resumeMode: 'use_decision_as_tool_result',
    },
  };
}

function inDoubt(callId: string): ToolCallState {
  return {
    ...approval(callId),
    toolName: 'send_invoice',
    arguments: { invoice: '7' },
    ticket: {
      suspension: indeterminateSuspension({ callId, toolName: 'send_invoice', step: 1 }),
      pending: { id: callId, name: 'send_invoice', arguments: { invoice: '7' } },
      resumeMode: 'replay_tool_call',
    },
  };
}

function view(more: Partial<DecisionView> = {}): DecisionView {
  return {
    runId: 'r',
    status: 'waiting',
    calls: [approval('a'), approval('b', { index: 1 }), clientTool('c')],
    applied: new Set(),
    pending: [],
    now: 1_000,
    ...more,
  };
}

const yes = (names: Omit<TicketAnswer, 'answer'>, more: object = {}): TicketAnswer => ({
  ...names,
  answer: { kind: 'approval', approved: true, ...more },
});
const no = (names: Omit<TicketAnswer, 'answer'>): TicketAnswer => ({
  ...names,
  answer: { kind: 'approval', approved: false, reason: 'keep it' },
});
const options = { channel: 'api' as const, decidedBy: 'alice' };

describe('judgeAnswers', () => {
  it('turns answers into decisions bound to call and ticket, by ticket id or call id', () => {
    const judged = judgeAnswers(
      view(),
      [
        yes({ ticketId: 'permission:1:a' }),
        no({ toolCallId: 'b' }),
        { toolCallId: 'c', answer: { kind: 'output', output: { color: 'green' } } },
      ],
      options,
    );
    expect(judged.refused).toEqual([]);
    expect(judged.decisions).toMatchObject([
      {
        toolCallId: 'a',
        ticketId: 'permission:1:a',
        action: 'resume',
        result: { approved: true },
        channel: 'api',
        decidedBy: 'alice',
      },
      {
        toolCallId: 'b',
        ticketId: 'permission:1:b',
        action: 'cancel',
        reason: 'keep it',
        result: { approved: false },
      },
      { toolCallId: 'c', ticketId: 'client:c', action: 'resume', result: { color: 'green' } },
    ]);
  });

  it('gives the same answer the same decision id, another answer another id, per channel', () => {
    const id = (answer: TicketAnswer, channel: 'api' | 'a2a' = 'api') =>
      judgeAnswers(view(), [answer], { channel }).decisions[0]?.decisionId;
    const first = id(yes({ ticketId: 'permission:1:a' }));
    expect(first).toMatch(/^api:permission:1:a:/);
    expect(id(yes({ toolCallId: 'a' }))).toBe(first);
    expect(id(no({ ticketId: 'permission:1:a' }))).not.toBe(first);
    expect(id(yes({ ticketId: 'permission:1:a' }), 'a2a')).toMatch(/^a2a:permission:1:a:/);
  });

  it('refuses an answer that does not fit its ticket, naming why', () => {
    const reasons = (answer: TicketAnswer) =>
      judgeAnswers(view(), [answer], options).refused.map((r) => r.reason);
    expect(reasons(yes({ ticketId: 'permission:1:a', toolCallId: 'b' }))).toEqual(['wrong_call']);
    expect(reasons(yes({ ticketId: 'permission:1:a', toolName: 'rm' }))).toEqual(['wrong_call']);
    expect(reasons({ ticketId: 'permission:1:a', answer: { kind: 'output', output: 1 } })).toEqual([
      'wrong_kind',
    ]);
    expect(reasons(yes({ toolCallId: 'c' }))).toEqual(['wrong_kind']);
    expect(reasons(yes({ toolCallId: 'a', arguments: { path: '/etc' } }))).toEqual(['input_changed']);
    expect(reasons(yes({ toolCallId: 'a', arguments: { path: '/tmp/a' } }))).toEqual([]);
    expect(reasons(yes({ toolCallId: 'a' }, { editedArguments: ['x'] }))).toEqual(['invalid_payload']);
    expect(reasons({ toolCallId: 'c', answer: { kind: 'output', output: Number.NaN } })).toEqual([
      'invalid_payload',
    ]);
    expect(reasons(yes({ toolCallId: 'nope' }))).toEqual(['unknown_tool_call']);
  });

  it('takes edited arguments only where the ticket takes them', () => {
    const noEdits = approval('a');
    noEdits.ticket = {
      ...(noEdits.ticket as NonNullable<ToolCallState['ticket']>),
      suspension: { id: 'permission:1:a', action: 'confirm', message: 'Delete?' },
    };
    const judged = judgeAnswers(
      view({ calls: [noEdits] }),
      [yes({ toolCallId: 'a' }, { editedArguments: { path: '/tmp/z' } })],
      options,
    );
    expect(judged.refused.map((r) => r.reason)).toEqual(['not_editable']);
    const edited = judgeAnswers(
      view(),
      [yes({ toolCallId: 'a' }, { editedArguments: { path: '/tmp/z' } })],
      options,
    );
    expect(edited.decisions[0]?.result).toEqual({ approved: true, editedArguments: { path: '/tmp/z' } });
  });

  it('a cancel fits every ticket kind', () => {
    const judged = judgeAnswers(
      view(),
      [{ toolCallId: 'c', answer: { kind: 'cancel', reason: 'cancelled' } }],
      options,
    );
    expect(judged.decisions).toMatchObject([{ toolCallId: 'c', action: 'cancel', reason: 'cancelled' }]);
  });

  it('one ticket answered twice: the same answer is a repeat, different answers take neither', () => {
    const repeated = judgeAnswers(
      view(),
      [yes({ toolCallId: 'a' }), yes({ ticketId: 'permission:1:a' })],
      options,
    );
    expect(repeated.decisions).toHaveLength(1);
    expect(repeated.answers[1]).toMatchObject({ status: 'duplicate', repeated: true });
    const torn = judgeAnswers(
      view(),
      [yes({ toolCallId: 'a' }), no({ toolCallId: 'a' }), yes({ toolCallId: 'b' })],
      options,
    );
    expect(torn.decisions.map((d) => d.toolCallId)).toEqual(['b']);
    expect(torn.conflicts).toEqual(['permission:1:a']);
    expect(torn.answers.map((a) => a.status)).toEqual(['refused', 'refused', 'accepted']);
  });

  it('refuses every answer to an expired ticket, a cancel too (one rule on every door)', () => {
    const expiring = approval('a');
    expiring.ticket = { ...(expiring.ticket as NonNullable<ToolCallState['ticket']>), expiresAt: 500 };
    for (const answer of [
      yes({ toolCallId: 'a' }),
      no({ toolCallId: 'a' }),
      { toolCallId: 'a', answer: { kind: 'cancel' as const } },
    ]) {
      const judged = judgeAnswers(view({ calls: [expiring] }), [answer], options);
      expect(judged.refused.map((r) => r.reason)).toEqual(['ticket_expired']);
    }
    // judged at the caller's clock when the view carries none
    const judged = judgeAnswers(view({ calls: [expiring], now: undefined }), [yes({ toolCallId: 'a' })], {
      ...options,
      now: 499,
    });
    expect(judged.decisions).toHaveLength(1);
  });

  it('a replayed answer is a duplicate: by id, and by content through the same door', () => {
    const first = judgeAnswers(view(), [yes({ toolCallId: 'a' })], options).decisions[0] as ToolCallDecision;
    const applied = judgeAnswers(
      view({ applied: new Set([first.decisionId]) }),
      [yes({ toolCallId: 'a' })],
      options,
    );
    expect(applied.answers[0]).toMatchObject({ status: 'duplicate', repeated: false });
    // answered before under another decision id (an earlier id scheme): the same answer is a duplicate
    const answered = approval('a', {
      status: 'resuming' as ToolCallState['status'],
      resume: { ...first, decisionId: 'old-id' },
    });
    const again = judgeAnswers(view({ calls: [answered] }), [yes({ toolCallId: 'a' })], options);
    expect(again.answers[0]?.status).toBe('duplicate');
    const other = judgeAnswers(view({ calls: [answered] }), [no({ toolCallId: 'a' })], options);
    expect(other.refused.map((r) => r.reason)).toEqual(['not_suspended']);
    const otherDoor = judgeAnswers(view({ calls: [answered] }), [yes({ toolCallId: 'a' })], {
      channel: 'a2a',
    });
    expect(otherDoor.refused.map((r) => r.reason)).toEqual(['not_suspended']);
    const queued = judgeAnswers(
      view({ pending: [{ ...first, decisionId: 'old-id' } as ToolCallDecision] }),
      [yes({ toolCallId: 'a' })],
      options,
    );
    expect(queued.answers[0]?.status).toBe('duplicate');
  });

  it('applies the judge: a finished run, and four-eyes tickets answered by the starter', () => {
    expect(
      judgeAnswers(view({ status: 'done', calls: [] }), [yes({ ticketId: 'permission:1:a' })], options)
        .refused[0]?.reason,
    ).toBe('run_finished');
    const guarded = approval('a');
    guarded.ticket = {
      ...(guarded.ticket as NonNullable<ToolCallState['ticket']>),
      suspension: {
        id: 'permission:1:a',
        action: 'confirm',
        message: 'Delete?',
        requiresDistinctApprover: true,
      },
    };
    const self = judgeAnswers(
      view({ calls: [guarded], startedBy: 'alice' }),
      [yes({ toolCallId: 'a' })],
      options,
    );
    expect(self.refused.map((r) => r.reason)).toEqual(['self_approval_forbidden']);
    const other = judgeAnswers(
      view({ calls: [guarded], startedBy: 'bob' }),
      [yes({ toolCallId: 'a' })],
      options,
    );
    expect(other.decisions).toHaveLength(1);
  });

  describe('an indeterminate question (did a call that must never run twice happen?)', () => {
    const ticketId = 'indeterminate:1:i';
    const doubt = () => view({ calls: [inDoubt('i')] });
    const judge = (answer: TicketAnswer['answer']) => judgeAnswers(doubt(), [{ ticketId, answer }], options);

    it('takes each outcome of its own response schema as the decision result', () => {
      for (const output of [
        { outcome: 'retry' },
        { outcome: 'result', result: { sent: '7' } },
        { outcome: 'fail', reason: 'the bank says no' },
      ]) {
        const judged = judge({ kind: 'output', output });
        expect(judged.refused).toEqual([]);
        expect(judged.decisions).toMatchObject([
          { ticketId, toolCallId: 'i', action: 'resume', result: output },
        ]);
      }
    });

    it('refuses an approval (it waits for an outcome) and a value its schema refuses', () => {
      const approved = judge({ kind: 'approval', approved: true });
      expect(approved.refused).toMatchObject([{ reason: 'wrong_kind' }]);
      expect(approved.refused[0]?.message).toMatch(
        /waits for an answer \{outcome: "retry" \| "result" \| "fail"\}/,
      );
      for (const output of [{ outcome: 'maybe' }, { approved: true }, { outcome: 'fail', reason: 7 }]) {
        expect(judge({ kind: 'output', output }).refused).toMatchObject([{ reason: 'invalid_payload' }]);
      }
    });

    it('a failure answer is its fail outcome (the call fails, no approval is declined); a cancel cancels', () => {
      expect(judge({ kind: 'failure', reason: 'never sent' }).decisions).toMatchObject([
        { action: 'resume', result: { outcome: 'fail', reason: 'never sent' } },
      ]);
      expect(judge({ kind: 'cancel', reason: 'stop' }).decisions).toMatchObject([
        { action: 'cancel', reason: 'stop' },
      ]);
      // the client-tool failure elsewhere is unchanged: a cancel the model reads
      expect(
        judgeAnswers(view(), [{ toolCallId: 'c', answer: { kind: 'failure', reason: 'x' } }], options)
          .decisions,
      ).toMatchObject([{ action: 'cancel', reason: 'x' }]);
    });
  });
});
