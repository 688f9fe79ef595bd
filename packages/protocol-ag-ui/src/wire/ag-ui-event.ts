/**
 * The AG-UI 1.0 events this adapter writes, typed structurally (no runtime dependency on
 * `@ag-ui/core`; its own schemas check every one of them in this package's tests). Optional
 * fields are left out rather than set to null.
 */

/** One open question of an interrupted run: an Awaken ticket as AG-UI shows it. */
export interface AgUiInterrupt {
  /** The ticket id: what `resume[].interruptId` names. */
  id: string;
  /** `tool_call` for every Awaken ticket (each is bound to a tool call), `awaken:indeterminate` for an indeterminate one. */
  reason: string;
  message?: string;
  toolCallId?: string;
  responseSchema?: Record<string, unknown>;
  /** ISO 8601, when the ticket expires. */
  expiresAt?: string;
  /**
   * For a sub-agent's question (a nested ticket): the child run it was asked in — the
   * `subagentRunId` of the `SUBAGENT_STARTED` of the call that delegated.
   */
  subagentRunId?: string;
  metadata?: Record<string, unknown>;
}

/** How a sub-agent's segment of the run ended (`SUBAGENT_FINISHED.outcome`). */
export type AgUiSubagentOutcome = { type: 'success' } | { type: 'suspended'; interruptIds?: string[] };

export type AgUiRunOutcome =
  | { type: 'success'; pendingToolCallIds?: string[] }
  | { type: 'interrupt'; interrupts: AgUiInterrupt[] }
  | { type: 'cancelled' };

export interface AgUiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** The messages of a `MESSAGES_SNAPSHOT` (the subset of AG-UI roles Awaken threads hold). */
export type AgUiMessage =
  | { id: string; role: 'user'; content: string }
  | { id: string; role: 'system'; content: string }
  | { id: string; role: 'assistant'; content?: string; toolCalls?: AgUiToolCall[] }
  | { id: string; role: 'reasoning'; content: string }
  | { id: string; role: 'tool'; toolCallId: string; content: string; error?: string };

/** An RFC 6902 operation of a `STATE_DELTA`. */
export type JsonPatchOperation =
  | { op: 'add' | 'replace'; path: string; value: unknown }
  | { op: 'remove'; path: string };

export type AgUiEvent =
  | {
      type: 'RUN_STARTED';
      threadId: string;
      runId: string;
      protocolVersion?: string;
      parentRunId?: string;
    }
  | { type: 'RUN_FINISHED'; threadId: string; runId: string; result?: unknown; outcome?: AgUiRunOutcome }
  | { type: 'RUN_ERROR'; message: string; code?: string }
  | { type: 'STEP_STARTED'; stepName: string }
  | { type: 'STEP_FINISHED'; stepName: string }
  | { type: 'TEXT_MESSAGE_START'; messageId: string; role: 'assistant' }
  | { type: 'TEXT_MESSAGE_CONTENT'; messageId: string; delta: string }
  | { type: 'TEXT_MESSAGE_END'; messageId: string }
  | { type: 'REASONING_START'; messageId: string }
  | { type: 'REASONING_MESSAGE_START'; messageId: string; role: 'reasoning' }
  | { type: 'REASONING_MESSAGE_CONTENT'; messageId: string; delta: string }
  | { type: 'REASONING_MESSAGE_END'; messageId: string }
  | { type: 'REASONING_END'; messageId: string }
  | { type: 'TOOL_CALL_START'; toolCallId: string; toolCallName: string; parentMessageId?: string }
  | { type: 'TOOL_CALL_ARGS'; toolCallId: string; delta: string }
  | { type: 'TOOL_CALL_END'; toolCallId: string }
  | { type: 'TOOL_CALL_RESULT'; messageId: string; toolCallId: string; content: string; role: 'tool' }
  | { type: 'STATE_SNAPSHOT'; snapshot: unknown }
  | { type: 'STATE_DELTA'; delta: JsonPatchOperation[] }
  | { type: 'MESSAGES_SNAPSHOT'; messages: AgUiMessage[] }
  | {
      type: 'SUBAGENT_STARTED';
      /** The child run id. */
      subagentRunId: string;
      /** The child's agent id. */
      name: string;
      parentToolCallId?: string;
      parentMessageId?: string;
    }
  | { type: 'SUBAGENT_FINISHED'; subagentRunId: string; outcome?: AgUiSubagentOutcome }
  | { type: 'SUBAGENT_ERROR'; subagentRunId: string; message: string; code?: string }
  | { type: 'CUSTOM'; name: string; value: unknown };

export type AgUiEventType = AgUiEvent['type'];

/** The protocol version `RUN_STARTED` announces (`^\d+\.\d+$`, as the 1.0 client expects). */
export const AG_UI_PROTOCOL_VERSION = '1.0';
