import type { OpenTicket } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { inputRequiredMessage } from './input-required-message';

const ids = { messageId: 'm1', taskId: 'run-1', contextId: 'thread-1' };
const nestedTicket: OpenTicket = {
  ticketId: 'sub:sub_1:permission:1:call_7',
  toolCallId: 'call_1',
  toolName: 'janitor',
  action: 'confirm',
  message: 'janitor › delete_file: Allow?',
  arguments: { task: 'delete /tmp/report.txt' },
  resumeMode: 'replay_tool_call',
  nested: {
    runId: 'sub_1',
    ticketId: 'permission:1:call_7',
    toolCallId: 'call_7',
    toolName: 'delete_file',
    arguments: { path: '/tmp/report.txt' },
    agentPath: ['demo', 'janitor'],
  },
};

describe('inputRequiredMessage of a sub-agent question', () => {
  it('asks about the inner call by its agent path, and the data part names the inner tool, input and path', () => {
    const message = inputRequiredMessage([nestedTicket], ids);
    expect(message.parts[0]).toEqual({
      text: 'Approve janitor › delete_file({"path":"/tmp/report.txt"})?',
      mediaType: 'text/plain',
    });
    expect(message.parts[1]).toMatchObject({
      data: {
        type: 'tool-approval-request',
        // the answer addresses the delegating call's ticket on this task
        approvalId: 'sub:sub_1:permission:1:call_7',
        toolCallId: 'call_1',
        toolName: 'janitor',
        nested: {
          toolName: 'delete_file',
          input: { path: '/tmp/report.txt' },
          agentPath: ['demo', 'janitor'],
          runId: 'sub_1',
          ticketId: 'permission:1:call_7',
        },
      },
    });
  });

  it('a ticket of the run itself has no nested part', () => {
    const { nested: _nested, ...own } = nestedTicket;
    const message = inputRequiredMessage(
      [{ ...own, toolName: 'delete_file', arguments: { path: '/x' } }],
      ids,
    );
    expect(message.parts[0]).toMatchObject({ text: 'Approve delete_file({"path":"/x"})?' });
    expect((message.parts[1] as { data: Record<string, unknown> }).data).not.toHaveProperty('nested');
  });
});
