import type { AgentEvent, RunEventLog } from '@awaken/contract';
import type { LiveRunEvents } from './live-run-events';

export interface FollowRunOptions {
  afterSeq?: number;
  signal?: AbortSignal;
  waitMs?: number;
  pageSize?: number;
}

/**
 * Yields a run's events from its event log after `afterSeq`, a page at a time, waiting for new ones
 * (blocking tail), and returns after the page holding the next `run_finish` (the run waits or is
 * done; nothing after it is yielded), when the log is finished and read to its end, or when `signal`
 * aborts. Works for a run executing in any process. When the run executes in this process (`live`),
 * its events come from memory once the log was read up to where the activation's events start —
 * pushed as the runtime yields them (each already appended), every event yielded since the last page
 * in one page, not polled; the log is read again whenever memory does not continue the seq without a
 * gap.
 */
export async function* followRunEventPages(
  eventLog: RunEventLog,
  runId: string,
  options: FollowRunOptions = {},
  live?: LiveRunEvents,
): AsyncGenerator<AgentEvent[]> {
  let seq = options.afterSeq ?? 0;
  const waitMs = options.waitMs ?? 1_000;
  // Read in pages: a consumer that stops pulling holds one page, never the rest of the log.
  const limit = options.pageSize ?? 256;
  const local = { seq, finished: false };
  while (!options.signal?.aborted) {
    const here = live?.has(runId) === true;
    if (here && live) {
      for await (const page of live.followPages(runId, seq, options.signal, local)) yield page;
      if (local.finished) return;
      const progressed = local.seq > seq;
      seq = local.seq;
      // memory carried on from seq: go round again (the activation may still be going)
      if (progressed) continue;
    }
    // a local activation's earlier events are in the log already: read them without waiting
    const events = await eventLog.tail(runId, {
      afterSeq: seq,
      waitMs: here ? 0 : waitMs,
      limit,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const finish = events.findIndex((event) => event.type === 'run_finish');
    const page = finish < 0 ? events : events.slice(0, finish + 1);
    const last = page.at(-1);
    if (last) {
      seq = last.seq;
      yield page;
      if (finish >= 0) return;
    }
    if (events.length === 0 && (await eventLog.isFinished(runId)) && (await eventLog.lastSeq(runId)) <= seq) {
      return;
    }
  }
}

/** {@link followRunEventPages} one event at a time. */
export async function* followRunEvents(
  eventLog: RunEventLog,
  runId: string,
  options: FollowRunOptions = {},
  live?: LiveRunEvents,
): AsyncGenerator<AgentEvent> {
  for await (const page of followRunEventPages(eventLog, runId, options, live)) yield* page;
}
