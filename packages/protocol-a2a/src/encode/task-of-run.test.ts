import type { MessageRecord } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { approvalCall, waitingRun } from '../../test-support/waiting-run';
import { taskOfRun } from './task-of-run';

const expiresAt = Date.UTC(2026, 10, 27, 12);
const record = waitingRun([approvalCall('call-a', '/tmp/a', 0, expiresAt)]);
const message = (seq: number, body: MessageRecord['message'], runId = 'run-1'): MessageRecord => ({
  threadId: 'thread-1',
  seq,
  runId,
  visibility: 'external',
  message: body,
  createdAt: 1,
});
const messages = [
  message(1, { role: 'user', content: 'earlier' }, 'run-0'),
  message(2, { role: 'user', content: 'delete /tmp/a' }),
  message(3, {
    role: 'assistant',
    text: 'I will delete it.',
    toolCalls: [{ id: 'call-a', name: 'delete_file' }],
  }),
];

describe('taskOfRun', () => {
  it('a waiting run: INPUT_REQUIRED asking each open ticket, with its expiry as ISO 8601', () => {
    const task = taskOfRun(record, messages);
    expect(task).toMatchObject({
      id: 'run-1',
      contextId: 'thread-1',
      status: { state: 'TASK_STATE_INPUT_REQUIRED' },
    });
    const data = task.status.message?.parts.flatMap((part) => ('data' in part ? [part.data] : []));
    expect(data).toEqual([
      expect.objectContaining({
        type: 'tool-approval-request',
        approvalId: 'ticket-call-a',
        toolCallId: 'call-a',
        expiresAt: '2026-11-27T12:00:00.000Z',
      }),
    ]);
    expect(task.history?.map((entry) => entry.parts)).toEqual([
      [{ text: 'delete /tmp/a' }],
      [{ text: 'I will delete it.' }],
    ]);
    expect(task.artifacts?.[0]?.parts).toEqual([{ text: 'I will delete it.', mediaType: 'text/plain' }]);
  });

  it('historyLength keeps the newest messages, 0 none', () => {
    expect(taskOfRun(record, messages, { historyLength: 1 }).history).toHaveLength(1);
    expect(taskOfRun(record, messages, { historyLength: 0 })).not.toHaveProperty('history');
  });

  it('a done run maps its termination; its tool results are artifacts', () => {
    const done = {
      ...record,
      status: 'done' as const,
      termination: { type: 'blocked' as const, reason: 'policy' },
    };
    const withResult = [
      ...messages,
      message(4, {
        role: 'tool',
        toolCallId: 'call-a',
        toolName: 'delete_file',
        outcome: 'failed',
        content: 'disk',
      }),
    ];
    const task = taskOfRun(done, withResult);
    expect(task.status.state).toBe('TASK_STATE_REJECTED');
    expect(task.artifacts?.[1]).toMatchObject({
      artifactId: 'tool-result-call-a',
      parts: [{ data: { toolCallId: 'call-a', toolName: 'delete_file', error: 'disk' } }],
    });
  });
});
