/**
 * The AG-UI ids of a thread's messages, derived from where they come from, never random: the ids a
 * stream announces (`TEXT_MESSAGE_START`, `TOOL_CALL_START.parentMessageId`,
 * `TOOL_CALL_RESULT.messageId`) are the ids the same messages carry in every later
 * `MESSAGES_SNAPSHOT`, on any process, so a client merging by id never duplicates or misorders one.
 */

/** The assistant message of one step of a run (its text and its tool calls). */
export function assistantMessageId(runId: string, step: number): string {
  return `${runId}:${step}:assistant`;
}

/** The reasoning of one step of a run. */
export function reasoningMessageId(runId: string, step: number): string {
  return `${runId}:${step}:reasoning`;
}

/** The result of one tool call of a run: its own message, distinct from the call's. */
export function toolResultMessageId(runId: string, toolCallId: string): string {
  return `${runId}:${toolCallId}:result`;
}

/** A message with no run-derived id (a user message, a message appended outside a run). */
export function threadMessageId(threadId: string, seq: number): string {
  return `${threadId}:${seq}`;
}
