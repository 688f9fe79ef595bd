import { AwakenError } from '@awaken/contract';

/**
 * The seq a stream resumes after: the `Last-Event-ID` header (what an EventSource sends when it
 * reconnects) wins over `?after=`; neither → 0. A header that is not a seq is the caller's mistake.
 */
export function eventCursor(lastEventId: string | undefined, after: number | undefined): number {
  if (lastEventId === undefined || lastEventId.trim() === '') return after ?? 0;
  const value = lastEventId.trim();
  if (!/^\d{1,15}$/.test(value)) {
    throw new AwakenError(
      'validation_failed',
      'Last-Event-ID: must be the seq of an event (a non-negative integer)',
      {
        details: { issues: [{ path: 'Last-Event-ID', message: 'expected a non-negative integer' }] },
      },
    );
  }
  return Number(value);
}
