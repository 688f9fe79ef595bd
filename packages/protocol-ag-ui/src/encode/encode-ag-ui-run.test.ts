import { EventSchema } from '@ag-ui/core/schemas';
import type { AgentEvent, AgentEventInput } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import type { AgUiEvent } from '../wire/ag-ui-event';
import { formatAgUiEvent, toAgUiSseStream } from '../stream/ag-ui-sse';
import { type AgUiRunEnding, encodeAgUiRun } from './encode-ag-ui-run';
import { HANDOFF_CUSTOM_EVENT } from './create-ag-ui-encoder';
import { diffJson } from './json-patch-diff';

function events(inputs: AgentEventInput[]): AgentEvent[] {
  return inputs.map((input, index) => ({ ...input, runId: 'r1', seq: index + 1, at: 1 }) as AgentEvent);
}

async function* from<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

async function collect(stream: AsyncIterable<AgUiEvent>): Promise<AgUiEvent[]> {
  const out: AgUiEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const ticket = {
  suspension: { id: 'k1', action: 'permission', message: 'Allow?' },
  pending: { id: 'c1', name: 'delete_file', arguments: { path: '/x' } },
  resumeMode: 'replay_tool_call' as const,
};

const waitingEnd: AgUiRunEnding = {
  status: 'waiting',
  tickets: [
    {
      ticketId: 'k1',
      toolCallId: 'c1',
      toolName: 'delete_file',
      action: 'permission',
      message: 'Allow?',
      arguments: { path: '/x' },
      resumeMode: 'replay_tool_call',
    },
  ],
  messages: async () => [{ id: 'r1:1:assistant', role: 'assistant', content: 'ok' }],
};

const run = events([
  { type: 'run_start', threadId: 't1', agentId: 'a', resumed: false },
  { type: 'step_start', step: 1 },
  { type: 'state_snapshot', state: { count: 1, list: [1] } },
  { type: 'reasoning_start', messageId: 'x' },
  { type: 'reasoning_delta', messageId: 'x', delta: 'hmm' },
  { type: 'text_start', messageId: 'random-1' },
  { type: 'text_delta', messageId: 'random-1', delta: 'ok' },
  { type: 'tool_call_start', toolCallId: 'c1', toolName: 'delete_file' },
  { type: 'tool_call_args_delta', toolCallId: 'c1', delta: '{"path":"/x"}' },
  { type: 'tool_call_ready', toolCallId: 'c1', toolName: 'delete_file', arguments: { path: '/x' } },
  { type: 'tool_call_suspended', toolCallId: 'c1', toolName: 'delete_file', ticket },
  { type: 'state_snapshot', state: { count: 2, list: [1] } },
  { type: 'step_end', step: 1 },
  { type: 'run_finish', status: 'waiting', termination: { type: 'suspended' }, usage },
]);

describe('encodeAgUiRun', () => {
  it('maps a run to events @ag-ui/core accepts, with stable ids, everything closed, then the interrupt', async () => {
    const out = await collect(
      encodeAgUiRun(from(run), { threadId: 't1', runId: 'client-run', settle: async () => waitingEnd }),
    );
    for (const event of out) expect(EventSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
    expect(out.map((event) => event.type)).toEqual([
      'RUN_STARTED',
      'STEP_STARTED',
      'STATE_SNAPSHOT',
      'REASONING_START',
      'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_CONTENT',
      'REASONING_MESSAGE_END',
      'REASONING_END',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'STATE_DELTA',
      'STEP_FINISHED',
      'STATE_SNAPSHOT',
      'MESSAGES_SNAPSHOT',
      'RUN_FINISHED',
    ]);
    expect(out[0]).toMatchObject({ runId: 'client-run', protocolVersion: '1.0' });
    expect(out.find((event) => event.type === 'TEXT_MESSAGE_START')).toMatchObject({
      messageId: 'r1:1:assistant',
    });
    expect(out.find((event) => event.type === 'TOOL_CALL_START')).toMatchObject({
      parentMessageId: 'r1:1:assistant',
    });
    expect(out.find((event) => event.type === 'STATE_DELTA')).toMatchObject({
      delta: [{ op: 'replace', path: '/count', value: 2 }],
    });
    expect(out.at(-3)).toMatchObject({ type: 'STATE_SNAPSHOT', snapshot: { count: 2, list: [1] } });
    expect(out.at(-1)).toMatchObject({
      outcome: { type: 'interrupt', interrupts: [{ id: 'k1', reason: 'tool_call', toolCallId: 'c1' }] },
    });
  });

  it('maps a handoff to a CUSTOM awaken.handoff event between the two agents’ steps', async () => {
    const handedOff = events([
      { type: 'run_start', threadId: 't1', agentId: 'triage', resumed: false },
      { type: 'step_start', step: 1 },
      { type: 'tool_call_ready', toolCallId: 'h', toolName: 'transfer_to_billing', arguments: {} },
      { type: 'tool_call_done', toolCallId: 'h', toolName: 'transfer_to_billing', status: 'succeeded' },
      { type: 'step_end', step: 1 },
      {
        type: 'handoff',
        fromAgentId: 'triage',
        toAgentId: 'billing',
        toolCallId: 'h',
        step: 1,
        reason: 'bill',
      },
      { type: 'step_start', step: 2 },
      { type: 'text_delta', messageId: 'm', delta: 'Billing here.' },
      { type: 'step_end', step: 2 },
      { type: 'run_finish', status: 'done', termination: { type: 'natural_end' }, usage },
    ]);
    const out = await collect(
      encodeAgUiRun(from(handedOff), {
        threadId: 't1',
        runId: 'client-run',
        settle: async () => ({ status: 'done', termination: { type: 'natural_end' } }) as AgUiRunEnding,
      }),
    );
    for (const event of out) expect(EventSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
    const at = out.findIndex((event) => event.type === 'CUSTOM');
    expect(out[at]).toEqual({
      type: 'CUSTOM',
      name: HANDOFF_CUSTOM_EVENT,
      value: { fromAgentId: 'triage', toAgentId: 'billing', toolCallId: 'h', step: 1, reason: 'bill' },
    });
    expect(out[at - 1]).toMatchObject({ type: 'STEP_FINISHED', stepName: 'step 1' });
    expect(out[at + 1]).toMatchObject({ type: 'STEP_STARTED', stepName: 'step 2' });
  });

  it('a replay starting mid-call streams the call whole; a broken source ends with RUN_ERROR after closing', async () => {
    const tail = events([
      { type: 'step_start', step: 2 },
      { type: 'tool_call_ready', toolCallId: 'c9', toolName: 'x', arguments: { a: 1 } },
      { type: 'tool_call_done', toolCallId: 'c9', toolName: 'x', status: 'succeeded', content: { b: 2 } },
    ]);
    async function* broken() {
      yield* tail;
      throw Object.assign(new Error('lost the store'), { code: 'store_failure' });
    }
    const out = await collect(
      encodeAgUiRun(broken(), { threadId: 't', runId: 'r', settle: async () => waitingEnd }),
    );
    for (const event of out) expect(EventSchema.safeParse(event).success).toBe(true);
    expect(out.map((event) => event.type)).toEqual([
      'RUN_STARTED',
      'STEP_STARTED',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'STEP_FINISHED',
      'RUN_ERROR',
    ]);
    expect(out.find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({
      messageId: 'r1:c9:result',
      content: '{"b":2}',
    });
    expect(out.at(-1)).toMatchObject({ code: 'store_failure', message: 'lost the store' });
  });

  it('only frontend calls waiting: success with pendingToolCallIds, never an interrupt; done+cancelled: cancelled', async () => {
    const frontend: AgUiRunEnding = {
      ...waitingEnd,
      tickets: [
        { ...waitingEnd.tickets[0]!, action: 'client_tool', resumeMode: 'use_decision_as_tool_result' },
      ],
    };
    const pending = await collect(
      encodeAgUiRun(from([]), { threadId: 't', runId: 'r', settle: async () => frontend }),
    );
    expect(pending.at(-1)).toMatchObject({ outcome: { type: 'success', pendingToolCallIds: ['c1'] } });
    const cancelled: AgUiRunEnding = {
      status: 'done',
      termination: { type: 'cancelled' },
      tickets: [],
      messages: async () => [],
    };
    const stopped = await collect(
      encodeAgUiRun(from([]), { threadId: 't', runId: 'r', settle: async () => cancelled }),
    );
    expect(stopped.at(-1)).toMatchObject({ outcome: { type: 'cancelled' } });
  });

  it('closingSnapshot: a MESSAGES_SNAPSHOT right before a finishing RUN_FINISHED, never twice before an interrupt', async () => {
    const done: AgUiRunEnding = {
      status: 'done',
      termination: { type: 'natural_end' },
      tickets: [],
      messages: async () => [{ id: 'r1:c1:result', role: 'tool', toolCallId: 'c1', content: '{"ok":1}' }],
    };
    const options = { threadId: 't', runId: 'r', closingSnapshot: true };
    const finished = await collect(encodeAgUiRun(from([]), { ...options, settle: async () => done }));
    expect(finished.map((event) => event.type)).toEqual(['RUN_STARTED', 'MESSAGES_SNAPSHOT', 'RUN_FINISHED']);
    expect(finished[1]).toMatchObject({ messages: [{ id: 'r1:c1:result', content: '{"ok":1}' }] });
    const interrupted = await collect(
      encodeAgUiRun(from([]), { ...options, settle: async () => waitingEnd }),
    );
    expect(interrupted.filter((event) => event.type === 'MESSAGES_SNAPSHOT')).toHaveLength(1);
    const plain = await collect(
      encodeAgUiRun(from([]), { threadId: 't', runId: 'r', settle: async () => done }),
    );
    expect(plain.map((event) => event.type)).toEqual(['RUN_STARTED', 'RUN_FINISHED']);
  });
});

describe('AG-UI SSE framing', () => {
  it('writes one LF-framed data line per event and no [DONE]', async () => {
    const body = toAgUiSseStream(from<AgUiEvent>([{ type: 'RUN_ERROR', message: 'a\r\nb' }]));
    const text = await new Response(body).text();
    expect(text).toBe(formatAgUiEvent({ type: 'RUN_ERROR', message: 'a\r\nb' }));
    expect(text).toMatch(/^data: \{.*\}\n\n$/);
    expect(text).not.toContain('\r');
    expect(text).not.toContain('[DONE]');
  });
});

describe('diffJson', () => {
  it('is an RFC 6902 patch: nested keys, removals, escaped tokens, arrays replaced whole', () => {
    expect(
      diffJson({ a: { b: 1, c: 2 }, 'x/y': 1, list: [1] }, { a: { b: 1, d: 3 }, 'x/y': 2, list: [1, 2] }),
    ).toEqual([
      { op: 'remove', path: '/a/c' },
      { op: 'add', path: '/a/d', value: 3 },
      { op: 'replace', path: '/x~1y', value: 2 },
      { op: 'replace', path: '/list', value: [1, 2] },
    ]);
    expect(diffJson({ a: 1 }, { a: 1 })).toEqual([]);
  });
});
