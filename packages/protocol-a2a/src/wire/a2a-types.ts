/**
 * A2A v1.0 objects as they travel on the wire (ProtoJSON: enums as strings, empty fields omitted).
 * The package's own types, so it needs no A2A SDK at runtime.
 */

/** Task states (`TASK_STATE_*`). INPUT_REQUIRED and AUTH_REQUIRED are interrupted; the last four terminal. */
export type TaskState =
  | 'TASK_STATE_SUBMITTED'
  | 'TASK_STATE_WORKING'
  | 'TASK_STATE_INPUT_REQUIRED'
  | 'TASK_STATE_AUTH_REQUIRED'
  | 'TASK_STATE_COMPLETED'
  | 'TASK_STATE_CANCELED'
  | 'TASK_STATE_FAILED'
  | 'TASK_STATE_REJECTED';

export const TERMINAL_TASK_STATES: ReadonlySet<TaskState> = new Set([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_FAILED',
  'TASK_STATE_REJECTED',
]);

export const INTERRUPTED_TASK_STATES: ReadonlySet<TaskState> = new Set([
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
]);

/** A text part or a data part (the two this adapter reads and writes). */
export type A2aPart =
  | { text: string; mediaType?: string; metadata?: Record<string, unknown> }
  | { data: unknown; mediaType?: string; metadata?: Record<string, unknown> }
  | { url: string; mediaType?: string; filename?: string; metadata?: Record<string, unknown> }
  | { raw: string; mediaType?: string; filename?: string; metadata?: Record<string, unknown> };

export interface A2aMessage {
  messageId: string;
  contextId?: string;
  taskId?: string;
  role: 'ROLE_USER' | 'ROLE_AGENT';
  parts: A2aPart[];
  metadata?: Record<string, unknown>;
  referenceTaskIds?: string[];
}

export interface A2aTaskStatus {
  state: TaskState;
  message?: A2aMessage;
  /** ISO 8601. */
  timestamp?: string;
}

export interface A2aArtifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: A2aPart[];
  metadata?: Record<string, unknown>;
}

export interface A2aTask {
  id: string;
  contextId: string;
  status: A2aTaskStatus;
  artifacts?: A2aArtifact[];
  history?: A2aMessage[];
  metadata?: Record<string, unknown>;
}

export interface A2aStatusUpdate {
  taskId: string;
  contextId: string;
  status: A2aTaskStatus;
  metadata?: Record<string, unknown>;
}

export interface A2aArtifactUpdate {
  taskId: string;
  contextId: string;
  artifact: A2aArtifact;
  append?: boolean;
  lastChunk?: boolean;
  metadata?: Record<string, unknown>;
}

/** One event of a streaming response (`SendStreamingMessage`, `SubscribeToTask`). */
export type A2aStreamResponse =
  | { task: A2aTask }
  | { message: A2aMessage }
  | { statusUpdate: A2aStatusUpdate }
  | { artifactUpdate: A2aArtifactUpdate };

/** The protocol versions this adapter speaks; a request without `A2A-Version` is `0.3`. */
export type A2aVersion = '1.0' | '0.3';
