import { describe, expect, it } from 'vitest';
import { parseWith } from '../../errors/validation';
import { agentEventSchema } from '../../events/agent-event';
import { toolCallDecisionSchema, toolCallResumeSchema } from '../../hitl/decision';
import { suspendTicketSchema } from '../../hitl/suspension';
import { runDispatchSchema } from '../../mailbox/run-dispatch';
import { messageRecordSchema } from '../../messages/message-record';
import { runRecordSchema } from '../../run/run-record';
import { threadSchema } from '../../run/thread';
import { toolCallStateSchema } from '../../tool/tool-call-state';

const roundTrip = <T>(value: T): unknown => JSON.parse(JSON.stringify(value));

const ticket = {
  suspension: {
    id: 'susp_1',
    action: 'confirm',
    message: 'Run Bash with {"command":"rm -rf build"}?',
    parameters: { toolName: 'Bash' },
    responseSchema: { type: 'object', properties: { approved: { type: 'boolean' } }, required: ['approved'] },
  },
  pending: { id: 'call_1', name: 'Bash', arguments: { command: 'rm -rf build' } },
  resumeMode: 'replay_tool_call' as const,
};

describe('contract schemas', () => {
  it('round-trips a SuspendTicket and a decision through JSON', () => {
    expect(suspendTicketSchema.parse(roundTrip(ticket))).toEqual(ticket);
    const decision = {
      toolCallId: 'call_1',
      decisionId: 'd1',
      action: 'resume',
      result: { approved: true },
      updatedAt: 1,
    };
    expect(toolCallDecisionSchema.parse(roundTrip(decision))).toEqual(decision);
  });

  it('round-trips a RunDispatch, a RunRecord, a Thread and a MessageRecord', () => {
    const dispatch = {
      dispatchId: 'd-1',
      threadId: 't-1',
      runId: 'r-1',
      priority: 128,
      dispatchEpoch: 0,
      status: 'claimed',
      availableAt: 10,
      attemptCount: 0,
      maxAttempts: 3,
      claimToken: 'tok',
      claimedBy: 'w1',
      leaseUntil: 30_010,
      createdAt: 10,
      updatedAt: 11,
    };
    expect(runDispatchSchema.parse(roundTrip(dispatch))).toEqual(dispatch);
    const run = {
      runId: 'r-1',
      threadId: 't-1',
      agentId: 'a',
      origin: 'user',
      status: 'waiting',
      termination: { type: 'suspended' },
      waiting: {
        reason: 'tool_call_suspended',
        ticketIds: ['susp_1'],
        tickets: [
          {
            ticketId: 'susp_1',
            toolCallId: 'call_1',
            toolName: 'Bash',
            action: 'confirm',
            message: 'ok?',
            arguments: {},
            resumeMode: 'replay_tool_call',
          },
        ],
      },
      steps: 1,
      usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
      state: { __run: { id: 'r-1', status: 'waiting', updatedAt: 1 } },
      version: 2,
      createdAt: 1,
      updatedAt: 2,
    };
    expect(runRecordSchema.parse(roundTrip(run))).toEqual(run);
    const thread = { id: 't-1', metadata: { title: 'x' }, openRunId: 'r-1', createdAt: 1, updatedAt: 2 };
    expect(threadSchema.parse(roundTrip(thread))).toEqual(thread);
    const record = {
      threadId: 't-1',
      seq: 2,
      runId: 'r-1',
      step: 1,
      visibility: 'external',
      message: {
        role: 'assistant',
        text: 'hi',
        toolCalls: [{ id: 'c', name: 'echo', arguments: { text: 'x' } }],
      },
      createdAt: 5,
    };
    expect(messageRecordSchema.parse(roundTrip(record))).toEqual(record);
  });

  it('round-trips every kind of AgentEvent it is given', () => {
    const events = [
      { type: 'run_start', runId: 'r', seq: 1, at: 1, threadId: 't', agentId: 'a', resumed: false },
      {
        type: 'tool_call_suspended',
        runId: 'r',
        seq: 2,
        at: 1,
        toolCallId: 'call_1',
        toolName: 'Bash',
        ticket,
      },
      {
        type: 'run_finish',
        runId: 'r',
        seq: 3,
        at: 1,
        status: 'waiting',
        termination: { type: 'suspended' },
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      },
    ];
    for (const event of events) expect(agentEventSchema.parse(roundTrip(event))).toEqual(event);
  });

  it('fills defaults of a tool call state', () => {
    const state = toolCallStateSchema.parse({
      callId: 'c',
      toolName: 'echo',
      arguments: {},
      status: 'new',
      step: 1,
      index: 0,
      updatedAt: 0,
    });
    expect(state.executions).toBe(0);
    expect(state.resultCommitted).toBe(false);
  });

  it('rejects malformed input with a message naming each field', () => {
    expect(() =>
      parseWith(runDispatchSchema, { dispatchId: 'd', threadId: '', priority: 300 }, 'dispatch'),
    ).toThrowError(/invalid dispatch: .*threadId.*priority/);
    expect(() =>
      parseWith(toolCallResumeSchema, { decisionId: 'd', action: 'approve', updatedAt: 1 }, 'decision'),
    ).toThrowError(/action/);
    expect(() => parseWith(agentEventSchema, { type: 'run_start', runId: 'r', seq: 0, at: 1 })).toThrowError(
      /seq/,
    );
    try {
      parseWith(suspendTicketSchema, { ...ticket, pending: { id: 'x' } }, 'ticket');
      expect.unreachable();
    } catch (error) {
      expect(
        (error as { details: { issues: Array<{ path: string }> } }).details.issues.map((issue) => issue.path),
      ).toEqual(['pending.name']);
    }
  });
});
