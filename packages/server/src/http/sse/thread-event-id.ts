import { AwakenError } from '@awaken/contract';

/**
 * Where a thread's event stream stands: the run it last sent an event of, and that event's per-run
 * seq. On the wire (the SSE `id:` and `Last-Event-ID`) it is `<runId>:<seq>`: the thread's runs are
 * ordered by creation (the order of `GET /v1/threads/:id/runs`, oldest first) and a run's events by
 * seq, so the pair orders every event of one thread. A run id may itself hold `:` — the seq is what
 * follows the last one.
 */
export interface ThreadEventId {
  runId: string;
  seq: number;
}

/** The SSE id of a run's event in its thread's stream: `<runId>:<seq>`. */
export function formatThreadEventId(id: ThreadEventId): string {
  return `${id.runId}:${id.seq}`;
}

/**
 * The position a thread stream resumes after: the `Last-Event-ID` header (what an EventSource sends
 * when it reconnects) wins over `?after=`; neither → `undefined` (from the thread's first run). A
 * value that is not `<runId>:<seq>` is the caller's mistake (`validation_failed` naming the field).
 */
export function threadEventCursor(
  lastEventId: string | undefined,
  after: string | undefined,
): ThreadEventId | undefined {
  const header = lastEventId?.trim();
  const [field, value] = header ? ['Last-Event-ID', header] : ['after', after?.trim()];
  if (!value) return undefined;
  const colon = value.lastIndexOf(':');
  const runId = value.slice(0, colon);
  const seq = value.slice(colon + 1);
  if (colon <= 0 || !/^\d{1,15}$/.test(seq)) {
    throw new AwakenError('validation_failed', `${field}: must be a thread event id, <runId>:<seq>`, {
      details: { issues: [{ path: field, message: 'expected <runId>:<seq>' }] },
    });
  }
  return { runId, seq: Number(seq) };
}
