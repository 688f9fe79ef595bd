import type { AgentEvent, AgentEventInput, SuspendTicket } from '@awaken/contract';
import { readUIMessageStream, uiMessageChunkSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import type { UiMessageChunk } from '../wire/ui-message-chunk';
import { encodeUiMessageStream } from './encode-ui-message-stream';

let seq = 0;
function events(...inputs: AgentEventInput[]): AgentEvent[] {
  return inputs.map((input) => ({ ...input, runId: 'run-1', seq: ++seq, at: 0 }) as AgentEvent);
}

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const child = { childRunId: 'sub_1', childThreadId: 'subthread_1', agentId: 'janitor' };
const nestedTicket: SuspendTicket = {
  suspension: {
    id: 'sub:sub_1:permission:1:call_7',
    action: 'confirm',
    message: 'janitor › delete_file: Allow?',
    nested: {
      runId: 'sub_1',
      ticketId: 'permission:1:call_7',
      toolCallId: 'call_7',
      toolName: 'delete_file',
      arguments: { path: '/tmp/report.txt' },
      agentPath: ['demo', 'janitor'],
    },
  },
  pending: { id: 'call_1', name: 'janitor', arguments: { task: 'delete /tmp/report.txt' } },
  resumeMode: 'replay_tool_call',
};

const asking = () =>
  events(
    { type: 'run_start', threadId: 't', agentId: 'demo', resumed: false },
    { type: 'step_start', step: 1 },
    {
      type: 'tool_call_ready',
      toolCallId: 'call_1',
      toolName: 'janitor',
      arguments: { task: 'delete /tmp/report.txt' },
    },
    { type: 'subagent_start', toolCallId: 'call_1', ...child, agentPath: ['demo', 'janitor'] },
    {
      type: 'subagent_finish',
      toolCallId: 'call_1',
      childRunId: 'sub_1',
      status: 'waiting',
      waitingTicketIds: ['permission:1:call_7'],
    },
    { type: 'tool_call_suspended', toolCallId: 'call_1', toolName: 'janitor', ticket: nestedTicket },
    { type: 'step_end', step: 1 },
    { type: 'run_finish', status: 'waiting', termination: { type: 'suspended' }, usage },
  );

async function encode(input: AgentEvent[], history: AgentEvent[] = []): Promise<UiMessageChunk[]> {
  const chunks: UiMessageChunk[] = [];
  for await (const chunk of encodeUiMessageStream(input, { messageId: 'run-1', history })) chunks.push(chunk);
  return chunks;
}

function streamOf(chunks: UiMessageChunk[]) {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk as never);
      controller.close();
    },
  });
}

describe('a sub-agent call on the UI message stream', () => {
  it("the child's progress and question are the delegate call's preliminary output; the approval names the inner call", async () => {
    const chunks = await encode(asking());
    const progress = chunks.filter((chunk) => chunk.type === 'tool-output-available');
    expect(progress).toEqual([
      {
        type: 'tool-output-available',
        toolCallId: 'call_1',
        preliminary: true,
        output: {
          subagent: {
            runId: 'sub_1',
            threadId: 'subthread_1',
            agentId: 'janitor',
            agentPath: ['demo', 'janitor'],
            status: 'running',
          },
        },
      },
      {
        type: 'tool-output-available',
        toolCallId: 'call_1',
        preliminary: true,
        output: {
          subagent: expect.objectContaining({
            status: 'waiting',
            question: {
              approvalId: 'sub:sub_1:permission:1:call_7',
              toolName: 'delete_file',
              input: { path: '/tmp/report.txt' },
              agentPath: ['demo', 'janitor'],
              message: 'janitor › delete_file: Allow?',
            },
          }),
        },
      },
    ]);
    const request = chunks.find((chunk) => chunk.type === 'tool-approval-request');
    expect(request).toEqual({
      type: 'tool-approval-request',
      approvalId: 'sub:sub_1:permission:1:call_7',
      toolCallId: 'call_1',
      approvalDescriptor: {
        toolName: 'delete_file',
        input: { path: '/tmp/report.txt' },
        agentPath: ['demo', 'janitor'],
        message: 'janitor › delete_file: Allow?',
      },
    });
    // every chunk passes the v6 client's own schema
    for (const chunk of chunks)
      expect((await uiMessageChunkSchema().validate!(JSON.parse(JSON.stringify(chunk)))).success).toBe(true);
  });

  it('the v6 client ends with the delegate part asking, its approval carrying the inner call', async () => {
    let last: any;
    for await (const message of readUIMessageStream({ stream: streamOf(await encode(asking())) }))
      last = message;
    const part = last.parts.find((entry: any) => entry.type === 'tool-janitor');
    expect(part).toMatchObject({
      toolCallId: 'call_1',
      state: 'approval-requested',
      input: { task: 'delete /tmp/report.txt' },
      approval: {
        id: 'sub:sub_1:permission:1:call_7',
        descriptor: {
          toolName: 'delete_file',
          input: { path: '/tmp/report.txt' },
          agentPath: ['demo', 'janitor'],
        },
      },
    });
  });

  it('the continuation shows the child running again, then the final output replaces the progress', async () => {
    const history = asking();
    const continued = events(
      { type: 'run_start', threadId: 't', agentId: 'demo', resumed: true },
      { type: 'step_start', step: 1 },
      {
        type: 'tool_call_resumed',
        toolCallId: 'call_1',
        decision: {
          decisionId: 'd1',
          ticketId: nestedTicket.suspension.id,
          toolCallId: 'call_1',
          action: 'resume',
          result: { approved: true },
          updatedAt: 0,
        },
      } as AgentEventInput,
      { type: 'subagent_start', toolCallId: 'call_1', ...child, agentPath: ['demo', 'janitor'] },
      { type: 'subagent_finish', toolCallId: 'call_1', childRunId: 'sub_1', status: 'done' },
      {
        type: 'tool_call_done',
        toolCallId: 'call_1',
        toolName: 'janitor',
        status: 'succeeded',
        content: 'Done: I deleted /tmp/report.txt.',
      } as AgentEventInput,
      { type: 'step_end', step: 1 },
      { type: 'run_finish', status: 'done', termination: { type: 'natural_end' }, usage },
    );
    const chunks = await encode(continued, history);
    expect(chunks.filter((chunk) => chunk.type.startsWith('tool-'))).toEqual([
      expect.objectContaining({
        preliminary: true,
        output: { subagent: expect.objectContaining({ status: 'running' }) },
      }),
      { type: 'tool-output-available', toolCallId: 'call_1', output: 'Done: I deleted /tmp/report.txt.' },
    ]);
  });
});
