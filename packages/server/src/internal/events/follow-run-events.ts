import type { AgentEvent, RunEventLog } from '@awaken/contract';

/**
 * Yields a run's events from its event log after `afterSeq`, waiting for new ones (blocking tail),
 * and returns after the next `run_finish` (the run waits or is done), when the log is finished and
 * read to its end, or when `signal` aborts. Works for a run executing in any process.
 */
export async function* followRunEvents(
  eventLog: RunEventLog,
  runId: string,
  options: { afterSeq?: number; signal?: AbortSignal; waitMs?: number; pageSize?: number } = {},
): AsyncGenerator<AgentEvent> {
  let seq = options.afterSeq ?? 0;
  const waitMs = options.waitMs ?? 1_000;
  // Read in pages: a consumer that stops pulling holds one page, never the rest of the log.
  const limit = options.pageSize ?? 256;
  while (!options.signal?.aborted) {
    const events = await eventLog.tail(runId, {
      afterSeq: seq,
      waitMs,
      limit,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    for (const event of events) {
      seq = event.seq;
      yield event;
      if (event.type === 'run_finish') return;
    }
    if (events.length === 0 && (await eventLog.isFinished(runId)) && (await eventLog.lastSeq(runId)) <= seq) {
      return;
    }
  }
}
