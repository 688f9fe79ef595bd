import { type AgentEvent, formatSseFrame, toSseStream } from '@awaken/contract';
import type { Logger } from 'pino';
import type { MailboxService } from '../../types';
import { toHttpError } from '../error-table';
import type { HttpMetrics } from '../http-metrics';
import { type EventPage, iterablePages } from './iterable-pages';
import { PageSize } from './page-size';

export interface RunEventStreamOptions {
  service: MailboxService;
  runId: string;
  /** Only events with a greater seq are sent. */
  afterSeq: number;
  keepAliveMs: number;
  /** Aborts when the client goes away; the run itself is never touched. */
  signal?: AbortSignal;
  metrics: HttpMetrics;
  log: Logger;
  /**
   * For a run just submitted here: its events as this process follows them, a page at a time
   * (`MailboxService.followPages`: pushed from memory while the run executes here, else read from the
   * log); the stream writes them instead of polling the log itself. Without it the stream tails the
   * event log.
   */
  follow?: (signal: AbortSignal) => AsyncIterable<AgentEvent[]>;
}

/** One SSE frame per event: `id:` is the event's per-run seq, `data:` the event as JSON. */
export function sseFrame(event: AgentEvent): string {
  return formatSseFrame({ id: event.seq, data: JSON.stringify(event) });
}

/** Written first: the client reconnects after a second, with `Last-Event-ID`. */
const GREETING = formatSseFrame({ retry: 1000, comment: 'awaken event stream' });

/**
 * A run's events from the store's event log — whichever process executes the run — after
 * `afterSeq`, until the next `run_finish` (the run waits or is done), or at once when the run is done
 * and everything was sent; a keep-alive every `keepAliveMs` while no event comes. One page of events
 * per write ({@link PageSize}): a client that stops reading holds about two pages. A client that
 * disconnects only stops its reader: the run goes on.
 */
export function runEventStream(options: RunEventStreamOptions): ReadableStream<Uint8Array> {
  return toSseStream(
    (cancelled) =>
      runEventChunks(options, options.signal ? AbortSignal.any([cancelled, options.signal]) : cancelled),
    { head: GREETING, encode: (chunk: string) => chunk, keepAliveMs: options.keepAliveMs },
  );
}

/** The stream's writes: each the frames of one page of events, or the error frame that ends it. */
async function* runEventChunks(options: RunEventStreamOptions, signal: AbortSignal): AsyncGenerator<string> {
  const { runId, log, keepAliveMs } = options;
  const { eventLog } = options.service.stores;
  const runEnded = runEndCheck(options.service, runId);
  const pages = new PageSize();
  const followed = options.follow ? iterablePages(options.follow(signal)) : undefined;
  let seq = options.afterSeq;
  let sent = 0;
  let why = 'client gone';
  try {
    // a reconnect to a finished run read to its end closes at once, not after a keep-alive (a run
    // just submitted is not finished)
    if (!followed && (await runEnded(seq))) {
      why = 'run done';
      return;
    }
    while (!signal.aborted) {
      const page: EventPage = followed
        ? await followed.read(pages.limit, keepAliveMs)
        : {
            ended: false,
            events: await eventLog.tail(runId, {
              afterSeq: seq,
              waitMs: keepAliveMs,
              limit: pages.limit,
              signal,
            }),
          };
      if (signal.aborted) return;
      // a quiet page: the stream sends the keep-alive, and ends when the run did
      if (page.events.length === 0) {
        if (page.ended || (await runEnded(seq))) {
          why = 'run done';
          return;
        }
        continue;
      }
      const frames = framesOf(page.events, seq);
      seq = frames.seq;
      sent += frames.count;
      // one lag sample per write: the oldest event in it waited longest
      if (frames.oldest !== undefined) options.metrics.observeEventLag((Date.now() - frames.oldest) / 1000);
      pages.observe(frames.count, frames.chunk.length);
      if (frames.chunk) yield frames.chunk;
      if (frames.finished) {
        why = 'run_finish';
        return;
      }
      if (page.ended) {
        why = 'run done';
        return;
      }
    }
  } catch (error) {
    if (signal.aborted) return;
    why = 'error';
    log.error({ runId, err: error }, 'event stream failed');
    yield formatSseFrame({ event: 'error', data: JSON.stringify(toHttpError(error).body) });
  } finally {
    followed?.close();
    log.debug({ runId, lastEventId: seq, sent, why }, 'event stream closed');
  }
}

/** The frames of the events of `events` after `afterSeq`, up to and with the first `run_finish`. */
function framesOf(events: AgentEvent[], afterSeq: number) {
  let chunk = '';
  let seq = afterSeq;
  let count = 0;
  let oldest: number | undefined;
  for (const event of events) {
    if (event.seq <= seq) continue;
    seq = event.seq;
    count += 1;
    chunk += sseFrame(event);
    oldest ??= event.at;
    if (event.type === 'run_finish') return { chunk, seq, count, oldest, finished: true };
  }
  return { chunk, seq, count, oldest, finished: false };
}

/**
 * Whether nothing more will come after a seq: the run is gone, or done with its log read to the end.
 * A run is stored `done` just before its `run_finish` is appended, so a done run ends the stream only
 * once its log is finished or ends with `run_finish` (or, should that event never land, after a few
 * quiet checks).
 */
function runEndCheck(service: MailboxService, runId: string): (seq: number) => Promise<boolean> {
  const { eventLog, threadRuns } = service.stores;
  let doneChecks = 0;
  return async (seq) => {
    const record = await threadRuns.getRun(runId);
    if (!record) return true;
    if (record.status !== 'done') return false;
    const last = await eventLog.lastSeq(runId);
    if (last > seq) return false;
    if (await eventLog.isFinished(runId)) return true;
    const [tail] = last > 0 ? await eventLog.read(runId, { afterSeq: last - 1, limit: 1 }) : [];
    doneChecks += 1;
    return tail?.type === 'run_finish' || doneChecks >= 3;
  };
}
