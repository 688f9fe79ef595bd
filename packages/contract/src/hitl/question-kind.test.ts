import { describe, expect, it } from 'vitest';
import {
  INDETERMINATE_ANSWER_JSON_SCHEMA,
  indeterminateQuestionOf,
  indeterminateSuspension,
} from './indeterminate';
import { isApprovalTicket } from './open-tickets';
import { isIndeterminateTicket, questionKindOf } from './question-kind';

const waiting = (action: string, resumeMode: 'replay_tool_call' | 'use_decision_as_tool_result') => ({
  action,
  resumeMode,
});

describe('questionKindOf: one rule for what a ticket asks, on every door', () => {
  it('tells approvals, indeterminate calls, client tools and value requests apart', () => {
    expect(questionKindOf(waiting('confirm', 'replay_tool_call'))).toBe('approval');
    expect(questionKindOf(waiting('indeterminate', 'replay_tool_call'))).toBe('indeterminate');
    expect(questionKindOf(waiting('client_tool', 'use_decision_as_tool_result'))).toBe('client_tool');
    expect(questionKindOf(waiting('ask_user', 'use_decision_as_tool_result'))).toBe('value');
  });

  it('an indeterminate ticket replays its call on retry, yet is no approval (an event ticket too)', () => {
    const suspension = indeterminateSuspension({ callId: 'c', toolName: 'pay', step: 1 });
    const ticket = { suspension, resumeMode: 'replay_tool_call' as const };
    expect(isIndeterminateTicket(ticket)).toBe(true);
    expect(isApprovalTicket(ticket)).toBe(false);
    expect(isApprovalTicket({ ...ticket, suspension: { ...suspension, action: 'confirm' } })).toBe(true);
  });

  it("a door shows the ticket's own response schema and the three outcomes", () => {
    const own = { type: 'object', properties: { outcome: { enum: ['retry'] } }, required: ['outcome'] };
    expect(indeterminateQuestionOf({ responseSchema: own })).toEqual({
      responseSchema: own,
      outcomes: ['retry', 'result', 'fail'],
    });
    expect(indeterminateQuestionOf({}).responseSchema).toBe(INDETERMINATE_ANSWER_JSON_SCHEMA);
  });
});
