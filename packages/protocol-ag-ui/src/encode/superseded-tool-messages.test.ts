import type { ToolCallState } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { supersededToolMessages } from './superseded-tool-messages';

const ticket = (action: string) =>
  ({
    suspension: { id: `ticket-${action}`, action, message: '?' },
    pending: { id: 'x', name: 'x', arguments: {} },
    resumeMode: 'replay_tool_call',
  }) as ToolCallState['ticket'];

const run = {
  runId: 'run-1',
  calls: [
    { callId: 'approved', ticket: ticket('permission') },
    { callId: 'plain' },
    { callId: 'frontend', ticket: ticket('client_tool') },
  ],
};

const tool = (id: string, toolCallId: string) => ({ id, role: 'tool' as const, toolCallId, content: '{}' });

describe('supersededToolMessages', () => {
  it("names the client's tool messages for server-executed calls of the run held under another id", () => {
    const messages = [
      { id: 'u1', role: 'user' as const, content: 'hi' },
      tool('synthetic', 'approved'),
      tool('copy', 'plain'),
      tool('run-1:approved:result', 'approved'),
      tool('client-answer', 'frontend'),
      tool('other-run', 'not-a-call-of-this-run'),
    ];
    expect(supersededToolMessages(messages, run)).toEqual(['synthetic', 'copy']);
  });

  it('is empty when the client holds only the results the server streamed', () => {
    expect(supersededToolMessages([tool('run-1:approved:result', 'approved')], run)).toEqual([]);
  });
});
