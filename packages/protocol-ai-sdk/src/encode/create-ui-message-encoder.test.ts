import type { AgentEvent, AgentEventInput, SuspendTicket } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { createUiMessageEncoder } from './create-ui-message-encoder';
import { encodeUiMessageStream } from './encode-ui-message-stream';
import type { UiMessageChunk } from '../wire/ui-message-chunk';

let seq = 0;
function events(...inputs: AgentEventInput[]): AgentEvent[] {
  return inputs.map((input) => ({ ...input, runId: 'run-1', seq: ++seq, at: 0 }) as AgentEvent);
}

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const ticket = (id: string, resumeMode: SuspendTicket['resumeMode'] = 'replay_tool_call'): SuspendTicket => ({
  suspension: { id: `permission:1:${id}`, action: 'confirm', message: 'Allow?' },
  pending: { id, name: 'echo', arguments: { text: id } },
  resumeMode,
});

async function encode(input: AgentEvent[], history: AgentEvent[] = []): Promise<UiMessageChunk[]> {
  const chunks: UiMessageChunk[] = [];
  for await (const chunk of encodeUiMessageStream(input, { messageId: 'run-1', history })) chunks.push(chunk);
  return chunks;
}

const types = (chunks: UiMessageChunk[]) => chunks.map((chunk) => chunk.type);

describe('createUiMessageEncoder', () => {
  it('sends start with the message id first and finish with the outcome last', async () => {
    const chunks = await encode(
      events(
        { type: 'run_start', threadId: 't', agentId: 'a', resumed: false },
        { type: 'run_finish', status: 'done', termination: { type: 'natural_end' }, usage },
      ),
    );
    expect(chunks).toEqual([
      {
        type: 'start',
        messageId: 'run-1',
        messageMetadata: { awaken: { runId: 'run-1', threadId: 't', status: 'running' } },
      },
      {
        type: 'finish',
        finishReason: 'stop',
        messageMetadata: {
          awaken: { runId: 'run-1', threadId: 't', status: 'done', termination: 'natural_end' },
        },
      },
    ]);
  });

  it('sends no chunk for a handoff: the steps of both agents stream as one message', async () => {
    const step = (n: number) => [
      { type: 'step_start', step: n } as const,
      { type: 'text_delta', messageId: `m${n}`, delta: `step ${n}` } as const,
      { type: 'step_end', step: n } as const,
    ];
    const run = (handoff: AgentEventInput[]) =>
      events(
        { type: 'run_start', threadId: 't', agentId: 'triage', resumed: false },
        ...step(1),
        ...handoff,
        ...step(2),
        { type: 'run_finish', status: 'done', termination: { type: 'natural_end' }, usage },
      );
    const withHandoff = await encode(
      run([{ type: 'handoff', fromAgentId: 'triage', toAgentId: 'billing', toolCallId: 'h', step: 1 }]),
    );
    expect(withHandoff).toEqual(await encode(run([])));
    expect(types(withHandoff).filter((type) => type === 'start-step')).toHaveLength(2);
  });

  it('opens a text or reasoning part a delta arrives for without its start (the client would fail)', async () => {
    const chunks = await encode(
      events(
        { type: 'text_delta', messageId: 'x', delta: 'hi' },
        { type: 'reasoning_delta', messageId: 'r', delta: '?' },
      ),
    );
    expect(types(chunks)).toEqual([
      'start',
      'text-start',
      'text-delta',
      'reasoning-start',
      'reasoning-delta',
      'text-end',
      'reasoning-end',
      'finish',
    ]);
  });

  it('creates the tool part before an approval request for a call this stream never showed', async () => {
    const chunks = await encode(
      events({ type: 'tool_call_suspended', toolCallId: 'a', toolName: 'echo', ticket: ticket('a') }),
    );
    expect(chunks.slice(1, 3)).toEqual([
      { type: 'tool-input-available', toolCallId: 'a', toolName: 'echo', input: { text: 'a' } },
      { type: 'tool-approval-request', approvalId: 'permission:1:a', toolCallId: 'a' },
    ]);
  });

  it('continues a step of an earlier activation without a new step-start, and starts the next one', async () => {
    const history = events(
      { type: 'run_start', threadId: 't', agentId: 'a', resumed: false },
      { type: 'step_start', step: 1 },
      { type: 'tool_call_ready', toolCallId: 'a', toolName: 'echo', arguments: { text: 'a' } },
      { type: 'tool_call_suspended', toolCallId: 'a', toolName: 'echo', ticket: ticket('a') },
      { type: 'step_end', step: 1 },
      { type: 'run_finish', status: 'waiting', termination: { type: 'suspended' }, usage },
    );
    const continuation = events(
      { type: 'run_start', threadId: 't', agentId: 'a', resumed: true },
      { type: 'step_start', step: 1 },
      {
        type: 'tool_call_resumed',
        toolCallId: 'a',
        decision: {
          toolCallId: 'a',
          ticketId: 'permission:1:a',
          decisionId: 'd',
          action: 'resume',
          updatedAt: 0,
        },
      },
      {
        type: 'tool_call_done',
        toolCallId: 'a',
        toolName: 'echo',
        status: 'succeeded',
        result: { status: 'success', output: 1 },
      },
      { type: 'step_end', step: 1 },
      { type: 'step_start', step: 2 },
      { type: 'step_end', step: 2 },
      { type: 'run_finish', status: 'done', termination: { type: 'natural_end' }, usage },
    );
    expect(types(await encode(continuation, history))).toEqual([
      'start',
      'tool-output-available',
      'start-step',
      'finish-step',
      'finish',
    ]);
    // the same events in one stream (a replay) show step 1 once
    expect(
      types(await encode([...history, ...continuation])).filter((type) => type === 'start-step'),
    ).toHaveLength(2);
  });

  it('maps the end of each call: denied approval, failed call, cancelled client tool, dropped call', async () => {
    const decision = { decisionId: 'd', action: 'cancel' as const, updatedAt: 0, reason: 'no' };
    const chunks = await encode(
      events(
        { type: 'step_start', step: 1 },
        { type: 'tool_call_suspended', toolCallId: 'a', toolName: 'echo', ticket: ticket('a') },
        { type: 'tool_call_resumed', toolCallId: 'a', decision: { ...decision, toolCallId: 'a' } },
        {
          type: 'tool_call_done',
          toolCallId: 'a',
          toolName: 'echo',
          status: 'cancelled',
          result: { status: 'error', message: 'no' },
        },
        {
          type: 'tool_call_suspended',
          toolCallId: 'b',
          toolName: 'echo',
          ticket: ticket('b', 'use_decision_as_tool_result'),
        },
        { type: 'tool_call_resumed', toolCallId: 'b', decision: { ...decision, toolCallId: 'b' } },
        {
          type: 'tool_call_done',
          toolCallId: 'b',
          toolName: 'echo',
          status: 'cancelled',
          result: { status: 'error', message: 'no' },
        },
        { type: 'tool_call_ready', toolCallId: 'c', toolName: 'echo', arguments: 'not json' },
        {
          type: 'tool_call_done',
          toolCallId: 'c',
          toolName: 'echo',
          status: 'failed',
          result: { status: 'error', message: 'bad' },
        },
        { type: 'tool_call_start', toolCallId: 'd', toolName: 'echo' },
        { type: 'tool_call_args_delta', toolCallId: 'd', delta: '{"te' },
        { type: 'step_end', step: 1 },
      ),
    );
    const ends = chunks.filter((chunk) => chunk.type.startsWith('tool-output'));
    expect(ends).toEqual([
      { type: 'tool-output-denied', toolCallId: 'a' },
      { type: 'tool-output-error', toolCallId: 'b', errorText: 'no' },
      { type: 'tool-output-error', toolCallId: 'c', errorText: 'bad' },
      { type: 'tool-output-error', toolCallId: 'd', errorText: 'the call was not made' },
    ]);
    // a client tool's suspension asks nothing: its part stays input-available
    expect(chunks.filter((chunk) => chunk.type === 'tool-approval-request')).toHaveLength(1);
  });

  it('reports only an error that ends the run, as error then finish(error)', async () => {
    const chunks = await encode(
      events(
        { type: 'error', code: 'decision_rejected', message: 'stale decision' },
        { type: 'error', code: 'model_permanent', message: 'model down' },
        { type: 'run_finish', status: 'done', termination: { type: 'error', message: 'model down' }, usage },
      ),
    );
    expect(chunks.slice(1)).toMatchObject([
      { type: 'error', errorText: 'model down' },
      { type: 'finish', finishReason: 'error' },
    ]);
  });

  it('ends a stream cut before run_finish with its parts closed and status running', async () => {
    const encoder = createUiMessageEncoder({ messageId: 'm', dynamicTools: true });
    encoder.push(events({ type: 'step_start', step: 3 })[0]!);
    const tool = encoder.push(events({ type: 'tool_call_start', toolCallId: 'a', toolName: 'x' })[0]!);
    expect(tool).toEqual([{ type: 'tool-input-start', toolCallId: 'a', toolName: 'x', dynamic: true }]);
    encoder.push(events({ type: 'text_start', messageId: 't' })[0]!);
    expect(encoder.end()).toMatchObject([
      { type: 'text-end', id: 't' },
      { type: 'tool-output-error', toolCallId: 'a' },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'other', messageMetadata: { awaken: { status: 'running' } } },
    ]);
  });
});
