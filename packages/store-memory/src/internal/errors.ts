import { AwakenError } from '@awaken/contract';

export function notFound(what: string, id: string): AwakenError {
  return new AwakenError('not_found', `${what} ${id} not found`, { details: { id } });
}

export function conflict(message: string, details?: Record<string, unknown>): AwakenError {
  return new AwakenError('conflict', message, details === undefined ? {} : { details });
}

/** A branch point past the thread's log. */
export function seqNotFound(threadId: string, seq: number, count: number): AwakenError {
  return new AwakenError('not_found', `thread ${threadId} has no message ${seq} (it has ${count})`, {
    details: { threadId, seq, count },
  });
}
