import type { IndeterminateOutcome, JsonSchema } from '@awaken/contract';

/**
 * The AI SDK v6 UI message stream chunks this package emits: a subset of `ai`'s `UIMessageChunk`
 * (a test assigns every variant to that type). Only v6 types and values: a v6 client rejects any
 * other `type` (or a v7 value such as `finishReason: 'interrupted'`) as a fatal validation error.
 */
export type UiMessageChunk =
  | { type: 'start'; messageId: string; messageMetadata?: UiMessageMetadata }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | { type: 'reasoning-end'; id: string }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string; dynamic?: boolean }
  | { type: 'tool-input-delta'; toolCallId: string; inputTextDelta: string }
  | {
      type: 'tool-input-available';
      toolCallId: string;
      toolName: string;
      input: unknown;
      dynamic?: boolean;
    }
  | {
      type: 'tool-approval-request';
      approvalId: string;
      toolCallId: string;
      /** Set for a sub-agent's question (a nested ticket): the inner call it is about. */
      approvalDescriptor?: NestedApprovalDescriptor;
    }
  | {
      type: 'tool-output-available';
      toolCallId: string;
      output: unknown;
      dynamic?: boolean;
      /** A progress value, replaced by a later output (a sub-agent call's {@link SubagentProgress}). */
      preliminary?: boolean;
    }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string; dynamic?: boolean }
  | { type: 'tool-output-denied'; toolCallId: string }
  | { type: typeof AWAKEN_QUESTION_PART; id: string; data: AwakenQuestionData }
  | { type: typeof AWAKEN_THREAD_PART; data: AwakenThreadData; transient: true }
  | { type: 'message-metadata'; messageMetadata: UiMessageMetadata }
  | { type: 'error'; errorText: string }
  | { type: 'finish'; finishReason: UiFinishReason; messageMetadata?: UiMessageMetadata };

export type UiMessageChunkType = UiMessageChunk['type'];

/** The v6 finish reasons (`interrupted` is v7 only and breaks a v6 client). */
export type UiFinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/**
 * What the assistant message's `metadata` carries, under the `awaken` key so it merges with an
 * application's own metadata: the run behind the message and where it stands.
 */
export interface UiMessageMetadata {
  awaken: AwakenMessageMetadata;
}

export interface AwakenMessageMetadata {
  runId: string;
  threadId?: string;
  /** `running` while streaming; `waiting` when the turn ended on approvals or client tools; `done`. */
  status: 'running' | 'waiting' | 'done';
  /** Why the run ended (`done`) or paused (`waiting`: `suspended`). */
  termination?: string;
  /** The ticket ids the run waits on: an approval's `approvalId`, or a client tool's ticket. */
  waitingFor?: string[];
  /**
   * When the waiting tickets that expire stop taking answers (ISO 8601), keyed by ticket id (an
   * approval's `approvalId`). A ticket not listed never expires. An answer after it is refused.
   */
  expiresAt?: Record<string, string>;
}

/**
 * The `type` of the data part (`data-<name>`, kept in the message's parts) that says what a tool part
 * left `input-available` waits for when it is not a client tool: today an `indeterminate` question.
 * Its `id` is the ticket id, so a replay replaces it instead of adding a second one.
 */
export const AWAKEN_QUESTION_PART = 'data-awaken-question';

/**
 * The `type` of the transient data part (delivered to `useChat`'s `onData`, never kept in a message)
 * that tells the client its turn continues on another thread than the chat id: a regenerate or an
 * edited earlier message runs on a branch, so the earlier answer stays on the thread it was. Send the
 * branch's `threadId` in the body of the next requests (`body: { threadId }`) to continue there.
 */
export const AWAKEN_THREAD_PART = 'data-awaken-thread';

/** What a `data-awaken-thread` part carries: the thread the turn runs on, and where it branched. */
export interface AwakenThreadData {
  threadId: string;
  branchOf: { threadId: string; seq: number };
}

/**
 * What a `data-awaken-question` part carries: an `indeterminate` question — a tool that must never run
 * twice was running when its process died, with no result recorded: did it happen? Answer it with
 * `addToolOutput({ tool, toolCallId, output })`, `output` one of `{outcome: 'retry'}`,
 * `{outcome: 'result', result}` or `{outcome: 'fail', reason?}` (`responseSchema`, the ticket's own);
 * an `output-error` is `fail` with its text as the reason.
 */
export interface AwakenQuestionData {
  kind: 'indeterminate';
  /** The ticket id (what `metadata.awaken.waitingFor` lists). */
  ticketId: string;
  toolCallId: string;
  toolName: string;
  message: string;
  /** The answer's JSON Schema: the ticket's own, as the server checks it. */
  responseSchema: JsonSchema;
  outcomes: IndeterminateOutcome[];
}

/**
 * What `tool-approval-request.approvalDescriptor` (the part's `approval.descriptor` on the client)
 * says when the approval is a sub-agent's question — a ticket of the delegating call that mirrors a
 * call inside the child run: the inner tool and its input as it would run, and the agents from the
 * top-level one to the one that asks, so a UI can show `janitor › delete_file {"path":…}`.
 */
export interface NestedApprovalDescriptor {
  toolName: string;
  input: unknown;
  /** Agent ids from the chat's agent to the one that asks, e.g. `['demo', 'janitor']`. */
  agentPath: string[];
  /** The ticket's message (`janitor › delete_file: Allow …`). */
  message: string;
}

/**
 * The preliminary output (`tool-output-available` with `preliminary: true`) of a call that runs a
 * sub-agent (`agentTool`): how its child run stands — `running` when it starts or continues,
 * `waiting` with the question it asks. The call's final output (the child's answer) replaces it.
 */
export interface SubagentProgress {
  subagent: {
    /** The child run (readable at `/v1/runs/:runId`, its events at `/v1/runs/:runId/events`). */
    runId: string;
    threadId: string;
    agentId: string;
    /** Agent ids from the chat's agent to the child's. */
    agentPath: string[];
    status: 'running' | 'waiting';
    /** While `waiting`: what the child asks (the same question as the approval's descriptor). */
    question?: NestedApprovalDescriptor & { approvalId: string };
  };
}
