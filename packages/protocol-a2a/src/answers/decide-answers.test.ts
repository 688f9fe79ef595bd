import { decisionViewOf } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { approvalCall, waitingRun } from '../../test-support/waiting-run';
import { decideAnswers } from './decide-answers';
import { readAnswers } from '../request/read-answers';

const record = waitingRun([approvalCall('call-a', '/tmp/a', 0), approvalCall('call-b', '/tmp/b', 1)]);
const decide = (parts: Array<{ text: string } | { data: unknown }>) =>
  decideAnswers({
    answers: readAnswers({ messageId: 'm', role: 'ROLE_USER', parts }),
    run: decisionViewOf(record),
  });

describe('decideAnswers', () => {
  it('turns data parts into decisions addressed by ticket, with stable ids', () => {
    const [approve, deny] = decide([
      { text: 'see below' },
      { data: { approved: true, approvalId: 'ticket-call-a', toolCallId: 'call-a' } },
      { data: { approved: false, approvalId: 'ticket-call-b', reason: 'no' } },
    ]);
    expect(approve).toMatchObject({
      ticketId: 'ticket-call-a',
      action: 'resume',
      result: { approved: true },
    });
    expect(deny).toMatchObject({ ticketId: 'ticket-call-b', action: 'cancel', reason: 'no' });
    const again = decide([{ data: { approved: true, approvalId: 'ticket-call-a' } }]);
    expect(again[0]?.decisionId).toBe(approve?.decisionId);
    const other = decide([{ data: { approved: false, approvalId: 'ticket-call-a' } }]);
    expect(other[0]?.decisionId).not.toBe(approve?.decisionId);
  });

  it('answers one ticket of two (a partial answer)', () => {
    expect(
      decide([{ data: { approved: true, approvalId: 'ticket-call-b' } }]).map((d) => d.ticketId),
    ).toEqual(['ticket-call-b']);
  });

  it('refuses free text, unknown tickets, a ticket of another call, a double answer and wrong kinds', () => {
    expect(() => decide([{ text: 'yes' }])).toThrow(/free text is not read as a decision/);
    expect(() => decide([{ data: { approved: true, approvalId: 'nope' } }])).toThrow(
      /parts\.0\.data: no open ticket of the task is approval nope/,
    );
    expect(() =>
      decide([{ data: { approved: true, approvalId: 'ticket-call-a', toolCallId: 'call-b' } }]),
    ).toThrow(/belongs to tool call call-a/);
    expect(() =>
      decide([
        { data: { approved: true, approvalId: 'ticket-call-a' } },
        { data: { approved: false, approvalId: 'ticket-call-a' } },
      ]),
    ).toThrow(/parts\.1\.data: approval ticket-call-a is answered twice/);
    expect(() => decide([{ data: { approvalId: 'ticket-call-a', output: 1 } }])).toThrow(
      /answered with \{approved/,
    );
    expect(() => decide([{ data: { approved: 'yes', approvalId: 'ticket-call-a' } }])).toThrow(
      /approved: expected a boolean/,
    );
    expect(() => decide([{ data: { approved: true } }])).toThrow(/parts\.0\.data\.approvalId/);
  });

  it('the decision judge refuses an answer for a run that is done', () => {
    const done = { ...record, status: 'done' as const };
    expect(() =>
      decideAnswers({
        answers: readAnswers({
          messageId: 'm',
          role: 'ROLE_USER',
          parts: [{ data: { approved: true, approvalId: 'ticket-call-a' } }],
        }),
        run: decisionViewOf(done),
      }),
    ).toThrow(/run run-1 is finished/);
  });
});
