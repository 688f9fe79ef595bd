import { AwakenError, type AgentEvent, formatSseFrame, toSseStream } from '@awaken/contract';
import type { Logger } from 'pino';
import type { MailboxService } from '../../types';
import { toHttpError } from '../error-table';
import type { HttpMetrics } from '../http-metrics';
import { PageSize } from './page-size';
import { type ThreadEventId, formatThreadEventId } from './thread-event-id';

export interface ThreadEventStreamOptions {
  service: MailboxService;
  threadId: string;
  /** Only events after this one are sent; `undefined`: from the thread's first run. */
  after?: ThreadEventId;
  /** The ids of the thread's runs after `after`'s run, oldest first ({@link runsAfter}). */
  runs: string[];
  keepAliveMs: number;
  /** How often the thread is checked for a new run while its runs are all done (default 500 ms). */
  checkMs?: number;
  /** Aborts when the client goes away; the runs are never touched. */
  signal?: AbortSignal;
  metrics: HttpMetrics;
  log: Logger;
}

/** Written first: the client reconnects after a second, with `Last-Event-ID`. */
const GREETING = formatSseFrame({ retry: 1000, comment: 'awaken thread event stream' });

/** How many runs one listing read asks for while it looks for the runs after a known one. */
const RUN_PAGE = 50;

/**
 * The ids of the thread's runs created after `afterRunId` (all of them without it), oldest first.
 * Reads the thread's run list newest first and stops at `afterRunId`, so a stream that is up to date
 * reads one short page. `undefined` when `afterRunId` is not a run of the thread (or the thread is gone).
 */
export async function runsAfter(
  service: MailboxService,
  threadId: string,
  afterRunId: string | undefined,
): Promise<string[] | undefined> {
  const newer: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await service.stores.threadRuns.listRuns(threadId, {
      limit: RUN_PAGE,
      ...(cursor ? { cursor } : {}),
    });
    for (const run of page.items) {
      if (run.runId === afterRunId) return newer.reverse();
      newer.push(run.runId);
    }
    cursor = page.nextCursor;
  } while (cursor);
  return afterRunId === undefined ? newer.reverse() : undefined;
}

/**
 * Every event of every run of a thread, in order — runs by creation, each run's events by seq — over
 * SSE, with `id: <runId>:<seq>` ({@link ThreadEventId}). It follows each run through all its
 * activations (a run that waits and is resumed later by a decision, an expiry or a finished child
 * goes on with the same run id and later seqs) and moves to the next run once a run is done and its
 * log read to the end; when every run is done it checks the thread for a new run every `checkMs`, so
 * a run the server starts later (queued input, a resume) is sent as it happens. It never ends by
 * itself while the thread exists: only when the client goes away (or the thread is deleted), with a
 * keep-alive every `keepAliveMs` of silence.
 *
 * Bounded like the run stream: one page of events per write ({@link PageSize}), nothing read ahead
 * beyond one page, so a client that stops reading holds about two pages; the only other state is
 * the ids of the runs not yet sent.
 *
 * The thread's runs execute one at a time (a waiting run blocks the next until it is decided or
 * cancelled), so a run is done before the next one writes its first event: the order is the order
 * the events happened in.
 */
export function threadEventStream(options: ThreadEventStreamOptions): ReadableStream<Uint8Array> {
  return toSseStream(
    (cancelled) =>
      threadEventChunks(options, options.signal ? AbortSignal.any([cancelled, options.signal]) : cancelled),
    { head: GREETING, encode: (chunk: string) => chunk, keepAliveMs: options.keepAliveMs },
  );
}

async function* threadEventChunks(
  options: ThreadEventStreamOptions,
  signal: AbortSignal,
): AsyncGenerator<string> {
  const { service, threadId, log, keepAliveMs } = options;
  const { eventLog, threadRuns } = service.stores;
  const checkMs = Math.min(options.checkMs ?? 500, keepAliveMs);
  const pages = new PageSize();
  let current: ThreadEventId | undefined = options.after;
  // the last run whose events were all sent: new runs are the ones after it
  let passed: string | undefined = options.after?.runId;
  let pending: string[] = [...options.runs];
  let quietChecks = 0;
  let sent = 0;
  let why = 'client gone';
  try {
    while (!signal.aborted) {
      if (!current) {
        const next = pending.shift();
        if (next !== undefined) {
          current = { runId: next, seq: 0 };
          quietChecks = 0;
          continue;
        }
        // every run is sent: wait for the thread's next one
        await delay(checkMs, signal);
        if (signal.aborted) return;
        const thread = await threadRuns.getThread(threadId);
        if (!thread) {
          why = 'thread deleted';
          return;
        }
        if (thread.latestRunId !== undefined && thread.latestRunId !== passed) {
          pending = (await runsAfter(service, threadId, passed)) ?? [];
        }
        continue;
      }
      const run = current;
      // a run with later runs queued behind it is read without waiting once it is done
      const events = await eventLog.tail(run.runId, {
        afterSeq: run.seq,
        waitMs: checkMs,
        limit: pages.limit,
        signal,
      });
      if (signal.aborted) return;
      if (events.length > 0) {
        quietChecks = 0;
        const frames = framesOf(events, run);
        current = { runId: run.runId, seq: frames.seq };
        sent += frames.count;
        if (frames.oldest !== undefined) options.metrics.observeEventLag((Date.now() - frames.oldest) / 1000);
        pages.observe(frames.count, frames.chunk.length);
        if (frames.chunk) yield frames.chunk;
        continue;
      }
      quietChecks += 1;
      if (await runOver(service, run, quietChecks)) {
        passed = run.runId;
        current = undefined;
        if (pending.length === 0) pending = (await runsAfter(service, threadId, passed)) ?? [];
      }
    }
  } catch (error) {
    if (signal.aborted) return;
    why = 'error';
    log.error({ threadId, err: error }, 'thread event stream failed');
    yield formatSseFrame({ event: 'error', data: JSON.stringify(toHttpError(error).body) });
  } finally {
    log.debug(
      { threadId, lastEventId: current ? formatThreadEventId(current) : passed, sent, why },
      'thread event stream closed',
    );
  }
}

/** The frames of `events` after the position's seq, each with its thread event id. */
function framesOf(events: AgentEvent[], after: ThreadEventId) {
  let chunk = '';
  let seq = after.seq;
  let count = 0;
  let oldest: number | undefined;
  for (const event of events) {
    if (event.seq <= seq) continue;
    seq = event.seq;
    count += 1;
    chunk += formatSseFrame({
      id: formatThreadEventId({ runId: after.runId, seq }),
      data: JSON.stringify(event),
    });
    oldest ??= event.at;
  }
  return { chunk, seq, count, oldest };
}

/**
 * Whether a run will write nothing after the position: it is gone, or done with its log read to
 * the end. A run is stored `done` just before its `run_finish` is appended, so a done run whose log
 * is neither finished nor ends with `run_finish` gets a few quiet checks more. A done run with an
 * empty log (never started, or its log expired) is over at once.
 */
async function runOver(service: MailboxService, at: ThreadEventId, quietChecks: number): Promise<boolean> {
  const { eventLog, threadRuns } = service.stores;
  const record = await threadRuns.getRun(at.runId);
  if (!record) return true;
  if (record.status !== 'done') return false;
  const last = await eventLog.lastSeq(at.runId);
  if (last === 0) return true;
  if (last > at.seq) return false;
  if (await eventLog.isFinished(at.runId)) return true;
  const [tail] = await eventLog.read(at.runId, { afterSeq: last - 1, limit: 1 });
  return tail?.type === 'run_finish' || quietChecks >= 3;
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * The error a cursor naming a run of another thread (or none) gets, before the stream starts;
 * `field` is where the cursor came from (`Last-Event-ID` or `after`).
 */
export function unknownCursorRun(threadId: string, runId: string, field = 'Last-Event-ID'): AwakenError {
  return new AwakenError('validation_failed', `${field}: run ${runId} is not a run of thread ${threadId}`, {
    details: { issues: [{ path: field, message: 'names no run of this thread' }] },
  });
}

/**
 * The error a cursor past its run's last event gets (a forged or foreign position: following it
 * would silently skip that run's next events), before the stream starts.
 */
export function cursorPastRun(runId: string, seq: number, lastSeq: number, field: string): AwakenError {
  return new AwakenError(
    'validation_failed',
    `${field}: event ${seq} of run ${runId} does not exist (its last event is ${lastSeq})`,
    { details: { issues: [{ path: field, message: 'names an event past the run’s last one' }] } },
  );
}
