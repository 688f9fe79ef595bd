import { type BaseEvent, verifyEvents } from '@ag-ui/client';
import { EventSchema } from '@ag-ui/core/schemas';
import type { AgentEvent, AgentEventInput } from '@awaken/contract';
import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgUiEvent } from '../wire/ag-ui-event';
import { type AgUiRunEnding, encodeAgUiRun } from './encode-ag-ui-run';

function events(inputs: AgentEventInput[]): AgentEvent[] {
  return inputs.map((input, index) => ({ ...input, runId: 'r1', seq: index + 1, at: 1 }) as AgentEvent);
}

async function* source<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

async function encode(input: AgentEvent[], ending: AgUiRunEnding): Promise<AgUiEvent[]> {
  const out: AgUiEvent[] = [];
  for await (const event of encodeAgUiRun(source(input), {
    threadId: 't1',
    runId: 'r1',
    settle: async () => ending,
  }))
    out.push(event);
  return out;
}

/** What `@ag-ui/client` 1.0 does with the events: its schema, then its verifier (pairing, closing). */
async function verified(out: AgUiEvent[]): Promise<BaseEvent[]> {
  for (const event of out) expect(EventSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
  return lastValueFrom(from(out as BaseEvent[]).pipe(verifyEvents(), toArray()));
}

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const nested = {
  runId: 'sub_a',
  ticketId: 'permission:1:call_7',
  toolCallId: 'call_7',
  toolName: 'delete_file',
  arguments: { path: '/tmp/a.txt' },
  agentPath: ['demo', 'janitor'],
};
const delegated = (callId: string, child: string, agentId: string): AgentEventInput[] => [
  { type: 'tool_call_start', toolCallId: callId, toolName: agentId },
  { type: 'tool_call_ready', toolCallId: callId, toolName: agentId, arguments: { task: 't' } },
  {
    type: 'subagent_start',
    toolCallId: callId,
    childRunId: child,
    childThreadId: `thread_${child}`,
    agentId,
    agentPath: ['demo', agentId],
  },
];

describe('sub-agents on the AG-UI stream', () => {
  it('each child is a SUBAGENT_STARTED/FINISHED pair tied to its call; a waiting one ends suspended and its question is an interrupt with its subagentRunId', async () => {
    const out = await encode(
      events([
        { type: 'run_start', threadId: 't1', agentId: 'demo', resumed: false },
        { type: 'step_start', step: 1 },
        ...delegated('c1', 'sub_a', 'janitor'),
        ...delegated('c2', 'sub_b', 'archivist'),
        { type: 'subagent_finish', toolCallId: 'c2', childRunId: 'sub_b', status: 'done' },
        {
          type: 'tool_call_done',
          toolCallId: 'c2',
          toolName: 'archivist',
          status: 'succeeded',
          content: 'ok',
        },
        { type: 'subagent_finish', toolCallId: 'c1', childRunId: 'sub_a', status: 'waiting' },
        { type: 'step_end', step: 1 },
        { type: 'run_finish', status: 'waiting', termination: { type: 'suspended' }, usage },
      ] as AgentEventInput[]),
      {
        status: 'waiting',
        tickets: [
          {
            ticketId: 'sub:sub_a:permission:1:call_7',
            toolCallId: 'c1',
            toolName: 'janitor',
            action: 'confirm',
            message: 'janitor › delete_file: Allow?',
            arguments: { task: 't' },
            resumeMode: 'replay_tool_call',
            nested,
          },
        ],
        messages: async () => [],
      },
    );
    const checked = await verified(out);
    expect(checked.length).toBe(out.length);
    const subagents = out.filter((event) => event.type.startsWith('SUBAGENT_'));
    expect(subagents).toEqual([
      {
        type: 'SUBAGENT_STARTED',
        subagentRunId: 'sub_a',
        name: 'janitor',
        parentToolCallId: 'c1',
        parentMessageId: expect.any(String),
      },
      expect.objectContaining({ type: 'SUBAGENT_STARTED', subagentRunId: 'sub_b', name: 'archivist' }),
      { type: 'SUBAGENT_FINISHED', subagentRunId: 'sub_b', outcome: { type: 'success' } },
      { type: 'SUBAGENT_FINISHED', subagentRunId: 'sub_a', outcome: { type: 'suspended' } },
    ]);
    const finished = out.at(-1);
    expect(finished).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: {
        type: 'interrupt',
        interrupts: [
          {
            id: 'sub:sub_a:permission:1:call_7',
            toolCallId: 'c1',
            subagentRunId: 'sub_a',
            metadata: {
              toolName: 'janitor',
              nested: {
                toolName: 'delete_file',
                arguments: { path: '/tmp/a.txt' },
                agentPath: ['demo', 'janitor'],
              },
            },
          },
        ],
      },
    });
  });

  it('a failed child is SUBAGENT_ERROR; a finish without its start in this response is dropped; one left open is closed before RUN_FINISHED', async () => {
    const out = await encode(
      events([
        { type: 'run_start', threadId: 't1', agentId: 'demo', resumed: true },
        { type: 'step_start', step: 1 },
        { type: 'subagent_finish', toolCallId: 'c0', childRunId: 'sub_old', status: 'done' },
        ...delegated('c1', 'sub_a', 'janitor'),
        { type: 'subagent_finish', toolCallId: 'c1', childRunId: 'sub_a', status: 'failed' },
        ...delegated('c2', 'sub_b', 'archivist'),
        { type: 'run_finish', status: 'done', termination: { type: 'natural_end' }, usage },
      ] as AgentEventInput[]),
      { status: 'done', termination: { type: 'natural_end' }, tickets: [], messages: async () => [] },
    );
    await verified(out);
    expect(out.filter((event) => event.type.startsWith('SUBAGENT_'))).toEqual([
      expect.objectContaining({ type: 'SUBAGENT_STARTED', subagentRunId: 'sub_a' }),
      {
        type: 'SUBAGENT_ERROR',
        subagentRunId: 'sub_a',
        code: 'subagent_failed',
        message: 'the "janitor" agent could not be run',
      },
      expect.objectContaining({ type: 'SUBAGENT_STARTED', subagentRunId: 'sub_b' }),
      { type: 'SUBAGENT_FINISHED', subagentRunId: 'sub_b', outcome: { type: 'suspended' } },
    ]);
    expect(out.at(-1)?.type).toBe('RUN_FINISHED');
  });
});
