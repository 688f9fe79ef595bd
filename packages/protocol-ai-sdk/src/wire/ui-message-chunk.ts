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
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown; dynamic?: boolean }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string; dynamic?: boolean }
  | { type: 'tool-output-denied'; toolCallId: string }
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
