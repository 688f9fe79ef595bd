import type { AgentEvent } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { approvalCall } from '../../test-support/waiting-run';
import type { A2aStreamResponse } from '../wire/a2a-types';
import { TaskProjection } from './task-projection';

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const base = { runId: 'run-1', at: Date.UTC(2026, 10, 26) };
const expiresAt = Date.UTC(2026, 10, 27);
const a = approvalCall('call-a', '/tmp/a', 0, expiresAt);
const b = approvalCall('call-b', '/tmp/b', 1);

const events = (
  [
    { type: 'run_start', threadId: 'thread-1', agentId: 'demo', resumed: false },
    { type: 'text_delta', messageId: 'x', delta: 'I will ' },
    { type: 'text_delta', messageId: 'x', delta: 'delete.' },
    { type: 'tool_call_suspended', toolCallId: 'call-a', toolName: 'delete_file', ticket: a.ticket },
    { type: 'tool_call_suspended', toolCallId: 'call-b', toolName: 'delete_file', ticket: b.ticket },
    { type: 'run_finish', status: 'waiting', termination: { type: 'suspended' }, usage },
    { type: 'run_start', threadId: 'thread-1', agentId: 'demo', resumed: true },
    {
      type: 'tool_call_done',
      toolCallId: 'call-a',
      toolName: 'delete_file',
      status: 'succeeded',
      content: { deleted: '/tmp/a' },
    },
    { type: 'run_finish', status: 'waiting', termination: { type: 'suspended' }, usage },
    { type: 'run_start', threadId: 'thread-1', agentId: 'demo', resumed: true },
    {
      type: 'tool_call_done',
      toolCallId: 'call-b',
      toolName: 'delete_file',
      status: 'cancelled',
      content: 'no',
    },
    { type: 'text_delta', messageId: 'y', delta: ' Done.' },
    { type: 'run_finish', status: 'done', termination: { type: 'natural_end' }, usage },
  ] as const
).map((event, index) => ({ ...base, ...event, seq: index + 1 }) as unknown as AgentEvent);

const ids = { taskId: 'run-1', contextId: 'thread-1' };
const statusOf = (updates: A2aStreamResponse[]) =>
  updates.flatMap((update) => ('statusUpdate' in update ? [update.statusUpdate.status] : []));

describe('TaskProjection', () => {
  it('maps activations to WORKING, answer chunks, tool results and the status that ends each', () => {
    const projection = new TaskProjection(ids);
    const updates = events.slice(0, 6).flatMap((event) => projection.apply(event));
    const [working, asking] = statusOf(updates);
    expect(working?.state).toBe('TASK_STATE_WORKING');
    expect(asking?.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const parts = asking?.message?.parts ?? [];
    expect(parts[0]).toMatchObject({
      text: 'Approve delete_file({"path":"/tmp/a"})?\nApprove delete_file({"path":"/tmp/b"})?',
    });
    expect(parts.slice(1).map((part) => ('data' in part ? part.data : undefined))).toMatchObject([
      {
        type: 'tool-approval-request',
        approvalId: 'ticket-call-a',
        toolCallId: 'call-a',
        input: { path: '/tmp/a' },
        expiresAt: '2026-11-27T00:00:00.000Z',
      },
      { type: 'tool-approval-request', approvalId: 'ticket-call-b' },
    ]);
    expect((parts[2] as { data: object }).data).not.toHaveProperty('expiresAt');
    const chunks = updates.flatMap((update) => ('artifactUpdate' in update ? [update.artifactUpdate] : []));
    expect(chunks.map((chunk) => [chunk.artifact.parts[0], chunk.append ?? false])).toEqual([
      [{ text: 'I will ', mediaType: 'text/plain' }, false],
      [{ text: 'delete.', mediaType: 'text/plain' }, true],
    ]);
    // the partial resume: one result, and the question again for the other ticket only
    const partial = events.slice(6, 9).flatMap((event) => projection.apply(event));
    const again = statusOf(partial).at(-1);
    expect(again?.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(
      again?.message?.parts.slice(1).map((part) => ('data' in part ? (part.data as any).approvalId : '')),
    ).toEqual(['ticket-call-b']);
    const rest = events.slice(9).flatMap((event) => projection.apply(event));
    expect(statusOf(rest).at(-1)?.state).toBe('TASK_STATE_COMPLETED');
    expect(projection.artifacts()).toEqual([
      {
        artifactId: 'answer',
        name: 'answer',
        parts: [{ text: 'I will delete. Done.', mediaType: 'text/plain' }],
      },
      {
        artifactId: 'tool-result-call-a',
        name: 'delete_file',
        parts: [
          {
            data: { toolCallId: 'call-a', toolName: 'delete_file', output: { deleted: '/tmp/a' } },
            mediaType: 'application/json',
          },
        ],
      },
      {
        artifactId: 'tool-result-call-b',
        name: 'delete_file',
        parts: [
          {
            data: { toolCallId: 'call-b', toolName: 'delete_file', denied: true, reason: 'no' },
            mediaType: 'application/json',
          },
        ],
      },
    ]);
  });

  it('a snapshot at any point plus the updates after it rebuild the same answer', () => {
    const whole = new TaskProjection(ids);
    for (const event of events) whole.apply(event);
    for (let cut = 0; cut <= events.length; cut += 1) {
      const early = new TaskProjection(ids);
      for (const event of events.slice(0, cut)) early.apply(event);
      let text =
        early
          .artifacts()
          .find((artifact) => artifact.artifactId === 'answer')
          ?.parts.map((part) => ('text' in part ? part.text : ''))
          .join('') ?? '';
      for (const event of events.slice(cut)) {
        for (const update of early.apply(event)) {
          if (!('artifactUpdate' in update) || update.artifactUpdate.artifact.artifactId !== 'answer')
            continue;
          const chunk = (update.artifactUpdate.artifact.parts[0] as { text: string }).text;
          text = update.artifactUpdate.append ? text + chunk : chunk;
        }
      }
      expect(text, `cut at ${cut}`).toBe('I will delete. Done.');
    }
  });

  it('a failed run carries its error in the status message', () => {
    const projection = new TaskProjection(ids);
    const [update] = projection.apply({
      ...base,
      seq: 1,
      type: 'run_finish',
      status: 'done',
      termination: { type: 'error', message: 'model down' },
      usage,
    } as AgentEvent);
    expect(update).toMatchObject({
      statusUpdate: { status: { state: 'TASK_STATE_FAILED', message: { parts: [{ text: 'model down' }] } } },
    });
  });
});
