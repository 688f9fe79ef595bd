import { describe, expect, it } from 'vitest';
import type { ToolCallState } from '../tool/tool-call-state';
import { waitingTicketOf } from './waiting-ticket-of';

function suspended(fourEyes: boolean): ToolCallState {
  return {
    callId: 'call_1',
    toolName: 'delete_file',
    arguments: { path: '/srv/a' },
    status: 'suspended',
    step: 1,
    index: 0,
    resultCommitted: false,
    executions: 0,
    updatedAt: 1,
    ticket: {
      suspension: {
        id: 'permission:1:call_1',
        action: 'confirm',
        message: 'Allow?',
        ...(fourEyes ? { requiresDistinctApprover: true } : {}),
      },
      pending: { id: 'call_1', name: 'delete_file', arguments: { path: '/srv/a' } },
      resumeMode: 'replay_tool_call',
    },
  } as ToolCallState;
}

describe('waitingTicketOf', () => {
  it('says up front when a ticket needs a second approver (four-eyes), and says nothing otherwise', () => {
    expect(waitingTicketOf(suspended(true))?.requiresDistinctApprover).toBe(true);
    expect(waitingTicketOf(suspended(false))).not.toHaveProperty('requiresDistinctApprover');
  });
});
