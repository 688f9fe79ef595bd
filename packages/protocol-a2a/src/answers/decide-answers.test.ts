import { decisionViewOf } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { approvalCall, indeterminateCall, waitingRun } from '../../test-support/waiting-run';
import { ticketDataPart } from '../encode/input-required-message';
import { openTicketsOf } from './open-tickets';
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

  describe('an indeterminate ticket (did a call that must never run twice happen?)', () => {
    const run = waitingRun([indeterminateCall('call-i', '77', 0), approvalCall('call-a', '/tmp/a', 1)]);
    const answer = (data: Record<string, unknown>) =>
      decideAnswers({
        answers: readAnswers({ messageId: 'm', role: 'ROLE_USER', parts: [{ data }] }),
        run: decisionViewOf(run),
      });
    const approvalId = 'indeterminate:1:call-i';

    it('is asked with a tool-indeterminate-request carrying its own answer shape and the outcomes', () => {
      const [asked, approval] = openTicketsOf(run).map(
        (ticket) => (ticketDataPart(ticket) as { data: any }).data,
      );
      expect(asked).toMatchObject({
        type: 'tool-indeterminate-request',
        approvalId,
        toolCallId: 'call-i',
        toolName: 'send_invoice',
        input: { invoice: '77' },
        outcomes: ['retry', 'result', 'fail'],
        responseSchema: {
          properties: {
            approvalId: {},
            outcome: { enum: ['retry', 'result', 'fail'] },
            result: {},
            reason: {},
          },
          required: ['approvalId', 'outcome'],
        },
      });
      expect(asked.responseSchema.properties).not.toHaveProperty('approved');
      // approvals are asked as before
      expect(approval).toMatchObject({ type: 'tool-approval-request', approvalId: 'ticket-call-a' });
      expect(approval).not.toHaveProperty('outcomes');
    });

    it('takes each outcome, as a flat data part or as an output value', () => {
      for (const [data, result] of [
        [{ outcome: 'retry' }, { outcome: 'retry' }],
        [
          { outcome: 'result', result: { sent: '77' } },
          { outcome: 'result', result: { sent: '77' } },
        ],
        [
          { outcome: 'fail', reason: 'bounced', note: 'x' },
          { outcome: 'fail', reason: 'bounced' },
        ],
        [{ output: { outcome: 'retry' } }, { outcome: 'retry' }],
      ] as const) {
        expect(answer({ approvalId, ...data })).toEqual([
          expect.objectContaining({ ticketId: approvalId, toolCallId: 'call-i', action: 'resume', result }),
        ]);
      }
    });

    it('refuses an approval and an unknown outcome with -32602 naming the data part and the shape', () => {
      expect(() => answer({ approvalId, approved: true })).toThrow(
        /parts\.0\.data: approval indeterminate:1:call-i is answered with \{approvalId, outcome/,
      );
      expect(() => answer({ approvalId, outcome: 'maybe' })).toThrow(/parts\.0\.data: .*response schema/);
      expect(() => answer({ approvalId: 'ticket-call-a', outcome: 'retry' })).toThrow(
        /answered with \{approved, approvalId\}/,
      );
    });
  });
});
