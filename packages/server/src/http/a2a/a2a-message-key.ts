import { createHash } from 'node:crypto';
import type { RunRecord } from '@awaken/contract';
import { A2aError } from '@awaken/protocol-a2a';
import { retryRunId } from '../internal/retry-run-id';

/** The run context key a task keeps the message that created it under: `{messageId, digest}`. */
export const A2A_MESSAGE_KEY = 'a2aMessage';

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/**
 * The task id (run id) of the task a message without `taskId` creates: derived from its context (none
 * when the message names none) and its `messageId` (`retryRunId`), so per tenant, context and
 * message: a message sent again — a client retrying after a lost answer, to this process or another
 * one on the same stores — names the run the first one created.
 */
export function messageTaskId(contextId: string | undefined, messageId: string): string {
  return retryRunId('a2a', [contextId ?? null, messageId]);
}

/** What makes a message the same message: the agent it was sent to and the input it gives the run. */
export function messageDigest(agentId: string, input: string): string {
  return sha256(JSON.stringify([agentId, input]));
}

/**
 * Refuses a `messageId` reused for another message: a task created by the message `messageId` whose
 * agent or input differ from this one's is `-32602` naming `params.message.messageId` (a caller's
 * mistake: the first task stands, nothing is started).
 */
export function checkSameMessage(
  record: RunRecord,
  message: { messageId: string; agentId: string; digest: string },
): void {
  const stored = record.context?.[A2A_MESSAGE_KEY] as { digest?: unknown } | undefined;
  if (record.agentId === message.agentId && stored?.digest === message.digest) return;
  throw new A2aError(
    'invalid_params',
    `invalid params: params.message.messageId: message ${message.messageId} already created task ${record.runId} with other content; a new message needs a new messageId`,
    { field: 'params.message.messageId', taskId: record.runId },
  );
}
