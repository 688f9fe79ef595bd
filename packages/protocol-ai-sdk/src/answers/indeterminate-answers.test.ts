import {
  type AgentEvent,
  type AgentEventInput,
  type DecisionView,
  type SuspendTicket,
  type ToolCallState,
  indeterminateSuspension,
} from '@awaken/contract';
import { uiMessageChunkSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { encodeUiMessageStream } from '../encode/encode-ui-message-stream';
import type { ProposedDecision } from '../request/read-chat-turn';
import type { UiMessageChunk } from '../wire/ui-message-chunk';
import { matchDecisions } from './match-decisions';

const args = { invoice: '77' };
const ticket: SuspendTicket = {
  suspension: indeterminateSuspension({ callId: 'i', toolName: 'send_invoice', step: 1, arguments: args }),
  pending: { id: 'i', name: 'send_invoice', arguments: args },
  resumeMode: 'replay_tool_call',
};
const ticketId = ticket.suspension.id;
const call: ToolCallState = {
  callId: 'i',
  toolName: 'send_invoice',
  arguments: args,
  status: 'suspended',
  step: 1,
  index: 0,
  resultCommitted: false,
  executions: 1,
  updatedAt: 0,
  ticket,
};
const run: DecisionView = { runId: 'r', status: 'waiting', calls: [call], applied: new Set(), pending: [] };

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
let seq = 0;
const events = (...inputs: AgentEventInput[]): AgentEvent[] =>
  inputs.map((input) => ({ ...input, runId: 'r', seq: ++seq, at: 0 }) as AgentEvent);

async function encode(input: AgentEvent[]): Promise<UiMessageChunk[]> {
  const chunks: UiMessageChunk[] = [];
  for await (const chunk of encodeUiMessageStream(input, { messageId: 'r' })) chunks.push(chunk);
  return chunks;
}

const output = (value: unknown): ProposedDecision => ({
  kind: 'output',
  toolCallId: 'i',
  toolName: 'send_invoice',
  input: args,
  output: value,
});

describe('an indeterminate question in the AI SDK stream (did send_invoice happen?)', () => {
  it('leaves the tool part input-available and says what it waits for in a data-awaken-question part', async () => {
    const chunks = await encode(
      events(
        { type: 'run_start', threadId: 't', agentId: 'a', resumed: true },
        { type: 'step_start', step: 1 },
        { type: 'tool_call_suspended', toolCallId: 'i', toolName: 'send_invoice', ticket },
        { type: 'run_finish', status: 'waiting', termination: { type: 'suspended' }, usage },
      ),
    );
    expect(chunks.map((chunk) => chunk.type)).not.toContain('tool-approval-request');
    const question = chunks.find((chunk) => chunk.type === 'data-awaken-question');
    expect(question).toEqual({
      type: 'data-awaken-question',
      id: ticketId,
      data: {
        kind: 'indeterminate',
        ticketId,
        toolCallId: 'i',
        toolName: 'send_invoice',
        message: ticket.suspension.message,
        responseSchema: ticket.suspension.responseSchema,
        outcomes: ['retry', 'result', 'fail'],
      },
    });
    // after the part the question is about, and a chunk the v6 client accepts
    const types = chunks.map((chunk) => chunk.type);
    expect(types.indexOf('tool-input-available')).toBeLessThan(types.indexOf('data-awaken-question'));
    expect((await uiMessageChunkSchema().validate!(question)).success).toBe(true);
    expect(chunks.at(-1)).toMatchObject({ messageMetadata: { awaken: { waitingFor: [ticketId] } } });
  });

  it('a tool output in its answer shape answers it; output-error is the fail outcome', () => {
    for (const value of [
      { outcome: 'retry' },
      { outcome: 'result', result: { sent: '77' } },
      { outcome: 'fail', reason: 'bounced' },
    ]) {
      const matched = matchDecisions({ proposals: [output(value)], run });
      expect(matched.rejected).toEqual([]);
      expect(matched.decisions).toMatchObject([
        { ticketId, toolCallId: 'i', action: 'resume', result: value },
      ]);
    }
    const failed = matchDecisions({
      proposals: [
        { kind: 'output-error', toolCallId: 'i', toolName: 'send_invoice', errorText: 'never sent' },
      ],
      run,
    });
    expect(failed.decisions).toMatchObject([
      { action: 'resume', result: { outcome: 'fail', reason: 'never sent' } },
    ]);
  });

  it('refuses an approval response and an output outside its shape, naming what it waits for', () => {
    const approval = matchDecisions({
      proposals: [
        { kind: 'approval', approvalId: ticketId, toolCallId: 'i', toolName: 'send_invoice', approved: true },
      ],
      run,
    });
    expect(approval.rejected).toMatchObject([{ reason: 'wrong_kind' }]);
    expect(approval.rejected[0]?.message).toMatch(/waits for a tool output \{outcome: "retry"/);
    for (const value of [{ sent: '77' }, { outcome: 'maybe' }, true]) {
      expect(matchDecisions({ proposals: [output(value)], run }).rejected).toMatchObject([
        { reason: 'invalid_value' },
      ]);
    }
  });
});
