import {
  RUN_STATE_PATHS,
  type RunRecord,
  type SuspendTicket,
  type ToolCallState,
  indeterminateSuspension,
} from '@awaken/contract';

/** A suspended call asking for approval of `delete_file({path})`, its ticket expiring at `expiresAt`. */
export function approvalCall(callId: string, path: string, index: number, expiresAt?: number): ToolCallState {
  const ticket: SuspendTicket = {
    suspension: { id: `ticket-${callId}`, action: 'tool:approve', message: `Delete ${path}?` },
    pending: { id: callId, name: 'delete_file', arguments: { path } },
    resumeMode: 'replay_tool_call',
    ...(expiresAt === undefined ? {} : { expiresAt }),
  };
  return {
    callId,
    toolName: 'delete_file',
    arguments: { path },
    status: 'suspended',
    step: 1,
    index,
    ticket,
    resultCommitted: false,
    executions: 0,
    updatedAt: 1,
  };
}

/**
 * A call of `send_invoice({invoice})` found running after its process died: its `indeterminate`
 * ticket (`indeterminate:1:<callId>`) asks whether the invoice went out.
 */
export function indeterminateCall(callId: string, invoice: string, index: number): ToolCallState {
  const args = { invoice };
  return {
    callId,
    toolName: 'send_invoice',
    arguments: args,
    status: 'suspended',
    step: 1,
    index,
    ticket: {
      suspension: indeterminateSuspension({ callId, toolName: 'send_invoice', step: 1, arguments: args }),
      pending: { id: callId, name: 'send_invoice', arguments: args },
      resumeMode: 'replay_tool_call',
    },
    resultCommitted: false,
    executions: 1,
    updatedAt: 1,
  };
}

/** A stored waiting run whose calls are `calls`. */
export function waitingRun(calls: ToolCallState[]): RunRecord {
  return {
    runId: 'run-1',
    threadId: 'thread-1',
    agentId: 'demo',
    origin: 'a2a',
    status: 'waiting',
    steps: 1,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    state: {
      [RUN_STATE_PATHS.toolCallScope]: Object.fromEntries(
        calls.map((call) => [call.callId, { tool_call_state: call }]),
      ),
    },
    version: 3,
    createdAt: 1,
    updatedAt: Date.UTC(2026, 10, 26),
  };
}
