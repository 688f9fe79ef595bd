import { EventSchema } from '@ag-ui/core/schemas';
import {
  APPROVAL_PAYLOAD_JSON_SCHEMA,
  type DecisionView,
  type ToolCallState,
  indeterminateSuspension,
} from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { openTicketsOf } from '@awaken/contract';
import { toInterrupt } from '../encode/interrupts';
import { judgeResume } from './judge-resume';

const NOW = Date.UTC(2026, 10, 26, 12);

function call(
  id: string,
  options: { expiresAt?: number; client?: boolean; status?: ToolCallState['status'] } = {},
): ToolCallState {
  return {
    callId: id,
    toolName: options.client ? 'confirm' : 'delete_file',
    arguments: { path: `/tmp/${id}` },
    status: options.status ?? 'suspended',
    step: 1,
    index: 0,
    ticket: {
      suspension: {
        id: `ticket-${id}`,
        action: options.client ? 'client_tool' : 'permission',
        message: `Allow ${id}?`,
        ...(options.client
          ? { responseSchema: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } } }
          : { responseSchema: APPROVAL_PAYLOAD_JSON_SCHEMA }),
      },
      pending: { id, name: options.client ? 'confirm' : 'delete_file', arguments: { path: `/tmp/${id}` } },
      resumeMode: options.client ? 'use_decision_as_tool_result' : 'replay_tool_call',
      ...(options.expiresAt === undefined ? {} : { expiresAt: options.expiresAt }),
    },
    resultCommitted: false,
    executions: 0,
    updatedAt: NOW,
  };
}

/** A call of `send_invoice` found running after a crash: it asks whether the invoice went out. */
function inDoubt(id: string): ToolCallState {
  const args = { invoice: id };
  return {
    ...call(id),
    toolName: 'send_invoice',
    arguments: args,
    status: 'suspended',
    executions: 1,
    ticket: {
      suspension: indeterminateSuspension({ callId: id, toolName: 'send_invoice', step: 1, arguments: args }),
      pending: { id, name: 'send_invoice', arguments: args },
      resumeMode: 'replay_tool_call',
    },
  };
}

function view(calls: ToolCallState[], applied: string[] = []): DecisionView {
  return { runId: 'run-1', status: 'waiting', calls, applied: new Set(applied), pending: [] };
}

const approve = (id: string, payload: unknown = { approved: true }) => ({
  interruptId: `ticket-${id}`,
  status: 'resolved' as const,
  payload,
});

describe('judgeResume', () => {
  it('maps approve, deny, cancelled and editedArgs to decisions the judge accepts', () => {
    const judged = judgeResume({
      run: view([call('a'), call('b'), call('c'), call('d')]),
      resume: [
        approve('a'),
        approve('b', { approved: false, reason: 'no' }),
        { interruptId: 'ticket-c', status: 'cancelled' },
        approve('d', { approved: true, editedArgs: { path: '/tmp/other' } }),
      ],
      now: NOW,
    });
    expect('error' in judged).toBe(false);
    if ('error' in judged) return;
    expect(judged.decisions.map((decision) => [decision.ticketId, decision.action, decision.result])).toEqual(
      [
        ['ticket-a', 'resume', { approved: true }],
        ['ticket-b', 'cancel', { approved: false, reason: 'no' }],
        ['ticket-c', 'cancel', { approved: false, reason: 'cancelled' }],
        ['ticket-d', 'resume', { approved: true, editedArguments: { path: '/tmp/other' } }],
      ],
    );
  });

  it('refuses the whole request for one bad entry: unknown id, bad payload, conflict', () => {
    const run = view([call('a'), call('b')]);
    const cases = [
      {
        resume: [
          approve('a'),
          { interruptId: 'nope', status: 'resolved' as const, payload: { approved: true } },
        ],
        code: 'unknown_interrupt',
      },
      { resume: [approve('a', { yes: true })], code: 'invalid_payload' },
      // a reason that is not text is refused like on every other door, not silently dropped
      { resume: [approve('a', { approved: false, reason: { why: 'x' } })], code: 'invalid_payload' },
      {
        resume: [approve('a', { approved: true, reason: Number.POSITIVE_INFINITY })],
        code: 'invalid_payload',
      },
      { resume: [approve('a'), approve('a', { approved: false })], code: 'conflicting_resume' },
    ];
    for (const { resume, code } of cases) {
      expect(judgeResume({ run, resume, now: NOW })).toMatchObject({ error: { code } });
    }
  });

  it('an expired ticket refuses every answer (ticket_expired), a cancel included', () => {
    // the view carries the clock, as the server's does (`decisionViewOf(record, Date.now())`)
    const run: DecisionView = { ...view([call('a', { expiresAt: NOW - 1 })]), now: NOW };
    expect(judgeResume({ run, resume: [approve('a')], now: NOW })).toMatchObject({
      error: { code: 'ticket_expired' },
    });
    const cancelled = judgeResume({
      run,
      resume: [{ interruptId: 'ticket-a', status: 'cancelled' }],
      now: NOW,
    });
    expect(cancelled).toMatchObject({ error: { code: 'ticket_expired' } });
    expect(
      judgeResume({ run: view([call('a', { expiresAt: NOW + 1 })]), resume: [approve('a')], now: NOW }),
    ).toMatchObject({
      decisions: [{ action: 'resume' }],
    });
  });

  it('a replayed answer the run already applied is a duplicate, not an error', () => {
    const first = judgeResume({ run: view([call('a')]), resume: [approve('a')], now: NOW });
    if ('error' in first) throw new Error(first.error.message);
    const decisionId = first.decisions[0]!.decisionId;
    const replay = judgeResume({
      run: view([call('a', { status: 'succeeded' })], [decisionId]),
      resume: [approve('a')],
      now: NOW,
    });
    expect(replay).toMatchObject({ decisions: [], duplicates: ['ticket-a'] });
  });

  it('a tool message answers a waiting frontend call, checked against its schema; one covered by resume[] is ignored', () => {
    const run = view([call('f', { client: true }), call('a')]);
    const tool = (content: string) => ({ id: 'm1', role: 'tool' as const, toolCallId: 'f', content });
    expect(judgeResume({ run, resume: [], messages: [tool('{"ok":true}')], now: NOW })).toMatchObject({
      decisions: [{ ticketId: 'ticket-f', action: 'resume', result: { ok: true } }],
      clientAnswered: new Set(['f']),
    });
    expect(judgeResume({ run, resume: [], messages: [tool('{"ok":"yes"}')], now: NOW })).toMatchObject({
      error: { code: 'invalid_payload' },
    });
    const synthetic = { id: 'm2', role: 'tool' as const, toolCallId: 'a', content: '{"approved":true}' };
    expect(judgeResume({ run, resume: [approve('a')], messages: [synthetic], now: NOW })).toMatchObject({
      decisions: [{ ticketId: 'ticket-a' }],
    });
  });
});

describe('toInterrupt', () => {
  it('shows expiresAt as ISO and advertises editedArgs only where the ticket allows editing', () => {
    const [ticket] = openTicketsOf(view([call('a', { expiresAt: NOW })]));
    const interrupt = toInterrupt(ticket!);
    expect(interrupt).toMatchObject({
      id: 'ticket-a',
      reason: 'tool_call',
      toolCallId: 'a',
      expiresAt: '2026-11-26T12:00:00.000Z',
      responseSchema: { properties: { approved: { type: 'boolean' }, editedArgs: { type: 'object' } } },
    });
    const fixed = {
      ...ticket!,
      responseSchema: { type: 'object', properties: { approved: { type: 'boolean' } } },
    };
    expect(toInterrupt(fixed).responseSchema?.properties).not.toHaveProperty('editedArgs');
    expect(toInterrupt(openTicketsOf(view([call('b')]))[0]!)).not.toHaveProperty('expiresAt');
  });
});

describe('an indeterminate interrupt (did a call that must never run twice happen?)', () => {
  const ticketId = 'indeterminate:1:i';
  const run = view([inDoubt('i')]);
  const resolved = (payload: unknown) => ({ interruptId: ticketId, status: 'resolved' as const, payload });

  it('carries its own answer shape, a reason of its own and the outcomes, valid AG-UI 1.0', () => {
    const interrupt = toInterrupt(openTicketsOf(run)[0]!);
    expect(interrupt).toMatchObject({
      id: ticketId,
      reason: 'awaken:indeterminate',
      toolCallId: 'i',
      responseSchema: {
        properties: { outcome: { enum: ['retry', 'result', 'fail'] } },
        required: ['outcome'],
      },
      metadata: { toolName: 'send_invoice', action: 'indeterminate', outcomes: ['retry', 'result', 'fail'] },
    });
    expect(interrupt.responseSchema?.properties).not.toHaveProperty('approved');
    const finished = {
      type: 'RUN_FINISHED',
      threadId: 't',
      runId: 'r',
      outcome: { type: 'interrupt', interrupts: [interrupt] },
    };
    expect(EventSchema.safeParse(finished).success).toBe(true);
  });

  it('takes each outcome as the decision result; cancelled stays a cancel', () => {
    for (const payload of [
      { outcome: 'retry' },
      { outcome: 'result', result: { sent: 'i' } },
      { outcome: 'fail', reason: 'the mail bounced' },
    ]) {
      expect(judgeResume({ run, resume: [resolved(payload)], now: NOW })).toMatchObject({
        decisions: [{ ticketId, toolCallId: 'i', action: 'resume', result: payload }],
      });
    }
    expect(
      judgeResume({ run, resume: [{ interruptId: ticketId, status: 'cancelled' }], now: NOW }),
    ).toMatchObject({ decisions: [{ ticketId, action: 'cancel' }] });
  });

  it('refuses an approval payload and an outcome it does not know: invalid_payload, nothing applied', () => {
    for (const payload of [{ approved: true }, { outcome: 'maybe' }, { outcome: 'fail', reason: 1 }]) {
      expect(judgeResume({ run, resume: [resolved(payload)], now: NOW })).toMatchObject({
        error: { code: 'invalid_payload' },
      });
    }
  });
});
