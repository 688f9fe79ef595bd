import type { DecisionView, RunWaitingTicket, ToolCallState } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { matchDecisions } from './match-decisions';
import type { ProposedDecision } from '../request/read-chat-turn';

const approval: RunWaitingTicket = {
  ticketId: 'permission:1:a',
  toolCallId: 'a',
  toolName: 'delete_file',
  action: 'confirm',
  message: 'Allow?',
  arguments: { path: '/tmp/x', options: { force: true } },
  resumeMode: 'replay_tool_call',
};
const clientTool: RunWaitingTicket = {
  ticketId: 'client_tool:1:b',
  toolCallId: 'b',
  toolName: 'choose_color',
  action: 'client_tool',
  message: 'run client tool',
  arguments: {},
  resumeMode: 'use_decision_as_tool_result',
};
const tickets = [approval, clientTool];

/** A stored call suspended on a ticket, as the server's record holds it. */
const callOf = (ticket: RunWaitingTicket, index: number): ToolCallState => ({
  callId: ticket.toolCallId,
  toolName: ticket.toolName,
  arguments: ticket.arguments,
  status: 'suspended',
  step: 1,
  index,
  resultCommitted: false,
  executions: 0,
  updatedAt: 0,
  ticket: {
    suspension: { id: ticket.ticketId, action: ticket.action, message: ticket.message },
    pending: { id: ticket.toolCallId, name: ticket.toolName, arguments: ticket.arguments },
    resumeMode: ticket.resumeMode,
  },
});
const viewOf = (waiting: readonly RunWaitingTicket[], more: Partial<DecisionView> = {}): DecisionView => ({
  runId: 'r',
  status: 'waiting',
  calls: waiting.map(callOf),
  applied: new Set(),
  pending: [],
  ...more,
});
const run = viewOf(tickets);

const approve = (extra: Partial<Extract<ProposedDecision, { kind: 'approval' }>> = {}): ProposedDecision => ({
  kind: 'approval',
  approvalId: 'permission:1:a',
  toolCallId: 'a',
  toolName: 'delete_file',
  approved: true,
  input: { options: { force: true }, path: '/tmp/x' },
  ...extra,
});

describe('matchDecisions', () => {
  it('turns an approval, a denial and a client output into complete decisions addressed by ticket', () => {
    const { decisions, rejected } = matchDecisions({
      proposals: [
        approve({ reason: 'fine' }),
        { kind: 'output', toolCallId: 'b', toolName: 'choose_color', output: 'red' },
      ],
      run,
      context: { user: 'ada' },
    });
    expect(rejected).toEqual([]);
    expect(decisions).toMatchObject([
      {
        ticketId: 'permission:1:a',
        toolCallId: 'a',
        action: 'resume',
        result: { approved: true, reason: 'fine' },
        decisionId: expect.stringMatching(/^ai-sdk:permission:1:a:/),
        context: { user: 'ada' },
      },
      { ticketId: 'client_tool:1:b', toolCallId: 'b', action: 'resume', result: 'red' },
    ]);
    const denied = matchDecisions({ proposals: [approve({ approved: false, reason: 'no' })], run });
    expect(denied.decisions).toMatchObject([{ action: 'cancel', reason: 'no', result: { approved: false } }]);
    const failed = matchDecisions({
      proposals: [{ kind: 'output-error', toolCallId: 'b', errorText: 'browser said no' }],
      run,
    });
    expect(failed.decisions).toMatchObject([
      { ticketId: 'client_tool:1:b', action: 'cancel', reason: 'browser said no' },
    ]);
  });

  it('asks the decision judge: a call whose other answer is accepted and not yet applied is refused', () => {
    const pending = [
      {
        toolCallId: 'a',
        ticketId: 'permission:1:a',
        decisionId: 'earlier',
        action: 'cancel' as const,
        updatedAt: 1,
      },
    ];
    const { decisions, rejected } = matchDecisions({
      proposals: [approve()],
      run: viewOf(tickets, { pending }),
    });
    expect(decisions).toEqual([]);
    expect(rejected).toMatchObject([{ reason: 'already_decided' }]);
    const finished = matchDecisions({ proposals: [approve()], run: viewOf(tickets, { status: 'done' }) });
    expect(finished.rejected).toMatchObject([{ reason: 'not_waiting' }]);
  });

  it('never passes the client input on: the decision carries no arguments, the store has them', () => {
    const { decisions } = matchDecisions({ proposals: [approve()], run });
    expect(JSON.stringify(decisions)).not.toContain('/tmp/x');
  });

  it.each([
    ['an unknown approval id', approve({ approvalId: 'permission:1:zzz' }), 'not_waiting'],
    ['an approval id of another call', approve({ toolCallId: 'c' }), 'wrong_call'],
    ['another tool name', approve({ toolName: 'read_file' }), 'wrong_call'],
    [
      'a changed input',
      approve({ input: { path: '/etc/passwd', options: { force: true } } }),
      'input_changed',
    ],
    [
      'an output for an approval',
      { kind: 'output', toolCallId: 'a', output: 1 } as ProposedDecision,
      'wrong_kind',
    ],
    [
      'an approval for a client tool',
      approve({ approvalId: 'client_tool:1:b', toolCallId: 'b', toolName: 'choose_color', input: {} }),
      'wrong_kind',
    ],
    [
      'an output for a call that does not wait',
      { kind: 'output', toolCallId: 'z', output: 1 } as ProposedDecision,
      'not_waiting',
    ],
  ])('rejects %s', (_, proposal, reason) => {
    const { decisions, rejected } = matchDecisions({ proposals: [proposal], run });
    expect(decisions).toEqual([]);
    expect(rejected).toMatchObject([{ proposal, reason }]);
    expect(rejected[0]!.message).not.toBe('');
  });

  it('takes one of two equal answers for one call, and none of two different ones', () => {
    const equal = matchDecisions({ proposals: [approve(), approve()], run });
    expect(equal.decisions).toMatchObject([{ action: 'resume' }]);
    expect(equal.rejected).toMatchObject([{ reason: 'duplicate' }]);
    expect(equal.conflicts).toEqual([]);

    const output = { kind: 'output', toolCallId: 'b', toolName: 'choose_color', output: 'red' } as const;
    const different = matchDecisions({
      proposals: [approve(), output, approve({ approved: false })],
      run,
    });
    expect(different.decisions).toMatchObject([{ toolCallId: 'b', result: 'red' }]);
    expect(different.conflicts).toEqual(['a']);
    expect(different.rejected.map((entry) => entry.reason)).toEqual(['conflicting', 'conflicting']);
  });

  it('gives another answer for the same ticket another decision id, so the store refuses it as a second decision', () => {
    const [yes] = matchDecisions({ proposals: [approve()], run }).decisions;
    const [no] = matchDecisions({ proposals: [approve({ approved: false })], run }).decisions;
    const [red] = matchDecisions({
      proposals: [{ kind: 'output', toolCallId: 'b', output: { c: 'red', n: 1 } }],
      run,
    }).decisions;
    const [sameRed] = matchDecisions({
      proposals: [{ kind: 'output', toolCallId: 'b', output: { n: 1, c: 'red' } }],
      run,
    }).decisions;
    const [blue] = matchDecisions({
      proposals: [{ kind: 'output', toolCallId: 'b', output: { c: 'blue', n: 1 } }],
      run,
    }).decisions;
    expect(yes!.decisionId).not.toBe(no!.decisionId);
    expect(red!.decisionId).toBe(sameRed!.decisionId);
    expect(red!.decisionId).not.toBe(blue!.decisionId);
  });

  it('rejects an answer that cannot be stored as JSON (nested too deep) without overflowing the stack', () => {
    let deep: unknown = 'red';
    for (let depth = 0; depth < 100_000; depth += 1) deep = [deep];
    const { decisions, rejected } = matchDecisions({
      proposals: [{ kind: 'output', toolCallId: 'b', output: deep }],
      run,
    });
    expect(decisions).toEqual([]);
    expect(rejected).toMatchObject([{ reason: 'invalid_value' }]);
    expect(rejected[0]!.message.length).toBeLessThan(2_000);
  });

  it('gives a re-sent request the same decision ids, so the runtime applies it once', () => {
    const first = matchDecisions({ proposals: [approve()], run }).decisions;
    const again = matchDecisions({ proposals: [approve()], run }).decisions;
    expect(again.map((decision) => decision.decisionId)).toEqual(
      first.map((decision) => decision.decisionId),
    );
  });
});
