import { describe, expect, it } from 'vitest';
import type { ToolCallState } from '../tool/tool-call-state';
import type { ToolCallDecision } from './decision';
import type { DecisionView } from './decision-view';
import { judgeDecision } from './judge-decision';

function suspended(callId: string, ticketId: string, extra: Partial<ToolCallState> = {}): ToolCallState {
  return {
    callId,
    toolName: 'delete_file',
    arguments: { path: '/tmp/x' },
    status: 'suspended',
    step: 1,
    index: 0,
    resultCommitted: false,
    executions: 0,
    updatedAt: 1,
    ticket: {
      suspension: { id: ticketId, action: 'confirm', message: 'Delete?' },
      pending: { id: callId, name: 'delete_file', arguments: { path: '/tmp/x' } },
      resumeMode: 'replay_tool_call',
    },
    ...extra,
  };
}

function view(more: Partial<DecisionView> = {}): DecisionView {
  return {
    runId: 'r',
    status: 'waiting',
    calls: [suspended('a', 'permission:1:a'), suspended('b', 'permission:1:b', { index: 1 })],
    applied: new Set(),
    pending: [],
    ...more,
  };
}

const yes = (names: { toolCallId?: string; ticketId?: string }, decisionId = 'd1') => ({
  ...names,
  decisionId,
  action: 'resume',
  result: { approved: true },
  updatedAt: 2,
});

describe('judgeDecision', () => {
  it('accepts an answer for a waiting call, addressed to its call and bound to its ticket', () => {
    for (const names of [
      { toolCallId: 'a' },
      { ticketId: 'permission:1:a' },
      { toolCallId: 'a', ticketId: 'permission:1:a' },
    ]) {
      const judged = judgeDecision(view(), yes(names));
      expect(judged.receipt).toEqual({
        toolCallId: 'a',
        ticketId: 'permission:1:a',
        decisionId: 'd1',
        status: 'accepted',
      });
      expect(judged.decision).toMatchObject({ toolCallId: 'a', ticketId: 'permission:1:a' });
      expect(judged.call?.callId).toBe('a');
    }
  });

  it('reads toolCallId as a tool call id only: a ticket id there is refused with a hint, never looked up', () => {
    const judged = judgeDecision(view(), yes({ toolCallId: 'permission:1:a' }));
    expect(judged.receipt).toMatchObject({ status: 'rejected', reason: 'unknown_tool_call' });
    expect(judged.receipt?.status === 'rejected' && judged.receipt.message).toContain('send it as ticketId');
  });

  it('refuses a ticket of another call, an unknown ticket and a call that is not suspended', () => {
    const other = judgeDecision(view(), yes({ toolCallId: 'b', ticketId: 'permission:1:a' }));
    expect(other.receipt).toMatchObject({ status: 'rejected', reason: 'invalid_payload' });
    const unknown = judgeDecision(view(), yes({ ticketId: 'permission:9:zzz' }));
    expect(unknown.receipt).toMatchObject({ status: 'rejected', reason: 'unknown_tool_call' });
    const running = view({ calls: [suspended('a', 'permission:1:a', { status: 'running' })] });
    expect(judgeDecision(running, yes({ toolCallId: 'a' })).receipt).toMatchObject({
      status: 'rejected',
      reason: 'not_suspended',
    });
  });

  it('answers a repeat of an applied or accepted decision as a duplicate, whatever the run is now', () => {
    const pending: ToolCallDecision[] = [
      { ...yes({ toolCallId: 'a', ticketId: 'permission:1:a' }, 'd0') } as ToolCallDecision,
    ];
    for (const more of [
      { applied: new Set(['d0']) },
      { pending },
      { status: 'done' as const, applied: new Set(['d0']) },
    ]) {
      const judged = judgeDecision(view(more), yes({ ticketId: 'permission:1:a' }, 'd0'));
      expect(judged.receipt).toEqual({
        ticketId: 'permission:1:a',
        toolCallId: 'a',
        decisionId: 'd0',
        status: 'duplicate',
      });
    }
  });

  it('refuses a second, different answer for a call that already has one accepted', () => {
    const pending = [yes({ toolCallId: 'a', ticketId: 'permission:1:a' }, 'd0') as ToolCallDecision];
    const judged = judgeDecision(view({ pending }), {
      ...yes({ ticketId: 'permission:1:a' }),
      action: 'cancel',
    });
    expect(judged.receipt).toMatchObject({
      status: 'rejected',
      reason: 'duplicate_conflict',
      toolCallId: 'a',
    });
  });

  it('refuses every decision for a finished or closing run, and a malformed one', () => {
    expect(judgeDecision(view({ status: 'done' }), yes({ toolCallId: 'a' })).receipt).toMatchObject({
      reason: 'run_finished',
    });
    expect(
      judgeDecision(view({ closing: 'being cancelled' }), yes({ toolCallId: 'a' })).receipt,
    ).toMatchObject({
      reason: 'run_finished',
    });
    for (const bad of [
      null,
      42,
      { decisionId: 'x' },
      { ...yes({}), action: 'maybe' },
      { ...yes({ toolCallId: 'a' }), updatedAt: Number.NaN },
    ]) {
      expect(judgeDecision(view(), bad).receipt).toMatchObject({
        status: 'rejected',
        reason: 'invalid_payload',
      });
    }
  });

  it('checks a resume result against the ticket response schema', () => {
    const call = suspended('a', 't');
    const schema = { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] };
    if (call.ticket) call.ticket.suspension.responseSchema = schema;
    const judged = judgeDecision(view({ calls: [call] }), {
      ...yes({ ticketId: 't' }),
      result: { color: 3 },
    });
    expect(judged.receipt).toMatchObject({ status: 'rejected', reason: 'invalid_payload' });
    const ok = judgeDecision(view({ calls: [call] }), {
      ...yes({ ticketId: 't' }),
      result: { color: 'red' },
    });
    expect(ok.receipt?.status).toBe('accepted');
  });

  it('defers to the owner only on a stored copy that is behind, and never for a decided or finished question', () => {
    const behind = view({ status: 'running', behind: true, calls: [] });
    expect(judgeDecision(behind, yes({ ticketId: 'permission:1:a' }))).toEqual({
      deferred: yes({ ticketId: 'permission:1:a' }),
    });
    const live = judgeDecision(view({ status: 'running', calls: [] }), yes({ ticketId: 'permission:1:a' }));
    expect(live.receipt).toMatchObject({ status: 'rejected', reason: 'unknown_tool_call' });
    // a call the copy shows answered never waits on that ticket again: refused, not deferred
    const answered = view({
      status: 'running',
      behind: true,
      calls: [
        suspended('a', 'permission:1:a', {
          status: 'resuming',
          resume: { ...yes({}, 'd0'), action: 'resume' } as never,
        }),
      ],
    });
    expect(judgeDecision(answered, yes({ ticketId: 'permission:1:a' })).receipt).toMatchObject({
      status: 'rejected',
      reason: 'not_suspended',
    });
    const unjudged = view({
      status: 'running',
      behind: true,
      calls: [suspended('a', 'x', { status: 'running', ticket: undefined })],
    });
    expect(judgeDecision(unjudged, yes({ toolCallId: 'a' })).deferred).toMatchObject({ toolCallId: 'a' });
    const applied = judgeDecision(view({ behind: true, applied: new Set(['d1']) }), yes({ toolCallId: 'a' }));
    expect(applied.receipt?.status).toBe('duplicate');
  });
});
