import { createHash } from 'node:crypto';

/**
 * The run id of a request a client may send again (a retry after a lost answer): derived from what
 * makes the request the same request at its door — A2A's context and `messageId`, the AI SDK chat and
 * its user message, an AG-UI thread, run id and user message. Each tenant has its own stores, so the
 * key is per tenant too. The request sent again names the run the first one created, and the store —
 * which refuses a second run under an existing id, atomically, whichever process asks — lets only
 * one of them create it: the others answer with that run.
 */
export function retryRunId(door: 'a2a' | 'chat' | 'agui', key: ReadonlyArray<string | null>): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([door, ...key]))
    .digest('base64url');
  return `${door}-${digest.slice(0, 32)}`;
}
