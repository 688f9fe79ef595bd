import type { AgentEvent } from '@awaken/contract';
import type { Logger } from 'pino';
import type { MailboxService } from '../../types';
import { toHttpError } from '../error-table';
import type { HttpMetrics } from '../http-metrics';
import { iterablePages } from './iterable-pages';
import { PageSize } from './page-size';

export interface SseStreamOptions {
  service: MailboxService;
  runId: string;
  /** Only events with a greater seq are sent. */
  afterSeq: number;
  keepAliveMs: number;
  /** Aborts when the client goes away; the run itself is never touched. */
  signal?: AbortSignal;
  metrics: HttpMetrics;
  log: Logger;
  headers?: Record<string, string>;
  /**
   * For a run just submitted here: its events as this process follows them, a page at a time
   * (`MailboxService.followPages`: pushed from memory while the run executes here, else read from the
   * log); the stream writes them instead of polling the log itself. Without it the stream tails the
   * event log.
   */
  follow?: (signal: AbortSignal) => AsyncIterable<AgentEvent[]>;
}

const encoder = new TextEncoder();

/** One SSE frame per event: `id:` is the event's per-run seq, `data:` the event as JSON. */
export function sseFrame(event: AgentEvent): string {
  return `id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * Streams a run's events from the store's event log — whichever process executes the run — after
 * `afterSeq`, until the next `run_finish` (the run waits or is done), or at once when the run is done
 * and everything was sent. A comment is sent every `keepAliveMs` while no event comes. A client that
 * disconnects only stops its reader: the run goes on.
 */
export function sseResponse(options: SseStreamOptions): Response {
  const { service, runId, log } = options;
  const { eventLog, threadRuns } = service.stores;
  const reader = new AbortController();
  const stop = () => reader.abort();
  options.signal?.addEventListener('abort', stop, { once: true });
  let seq = options.afterSeq;
  let sent = 0;
  // One page per pull: the stream queues at most one page ahead, and the adapter pulls again only
  // once the socket took the last write, so a client that stops reading holds about two pages.
  const pages = new PageSize();
  const followed = options.follow ? iterablePages(options.follow(reader.signal)) : undefined;

  let doneChecks = 0;
  /**
   * Nothing more will come after `seq`: the run is gone, or done with its log read to the end. A run
   * is stored `done` just before its `run_finish` is appended, so a done run ends the stream only once
   * its log is finished or ends with `run_finish` (or, should that event never land, after a few
   * quiet checks).
   */
  async function runEnded(): Promise<boolean> {
    const record = await threadRuns.getRun(runId);
    if (!record) return true;
    if (record.status !== 'done') return false;
    const last = await eventLog.lastSeq(runId);
    if (last > seq) return false;
    if (await eventLog.isFinished(runId)) return true;
    const [tail] = last > 0 ? await eventLog.read(runId, { afterSeq: last - 1, limit: 1 }) : [];
    doneChecks += 1;
    return tail?.type === 'run_finish' || doneChecks >= 3;
  }

  function close(controller: ReadableStreamDefaultController<Uint8Array>, why: string): void {
    options.signal?.removeEventListener('abort', stop);
    followed?.close();
    log.debug({ runId, lastEventId: seq, sent, why }, 'event stream closed');
    try {
      controller.close();
    } catch {
      // already cancelled by the client
    }
  }

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('retry: 1000\n: awaken event stream\n\n'));
    },
    async pull(controller) {
      if (reader.signal.aborted) return close(controller, 'client gone');
      try {
        // a reconnect to a finished run read to its end closes at once, not after a keep-alive (a
        // run just submitted is not finished)
        if (!followed && sent === 0 && doneChecks === 0 && (await runEnded()))
          return close(controller, 'run done');
        const page = followed
          ? await followed.read(pages.limit, options.keepAliveMs)
          : {
              ended: false,
              events: await eventLog.tail(runId, {
                afterSeq: seq,
                waitMs: options.keepAliveMs,
                limit: pages.limit,
                signal: reader.signal,
              }),
            };
        const { events } = page;
        if (reader.signal.aborted) return close(controller, 'client gone');
        if (page.ended && events.length === 0) return close(controller, 'run done');
        if (events.length === 0) {
          if (await runEnded()) return close(controller, 'run done');
          controller.enqueue(encoder.encode(': keep-alive\n\n'));
          return;
        }
        let chunk = '';
        let finished = false;
        let oldest: number | undefined;
        let count = 0;
        for (const event of events) {
          if (event.seq <= seq) continue;
          seq = event.seq;
          sent += 1;
          count += 1;
          chunk += sseFrame(event);
          oldest ??= event.at;
          if (event.type === 'run_finish') {
            finished = true;
            break;
          }
        }
        // one lag sample per write: the oldest event in it waited longest
        if (oldest !== undefined) options.metrics.observeEventLag((Date.now() - oldest) / 1000);
        pages.observe(count, chunk.length);
        if (chunk) controller.enqueue(encoder.encode(chunk));
        if (finished) close(controller, 'run_finish');
        else if (page.ended) close(controller, 'run done');
      } catch (error) {
        log.error({ runId, err: error }, 'event stream failed');
        const { body } = toHttpError(error);
        controller.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify(body)}\n\n`));
        close(controller, 'error');
      }
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...options.headers,
    },
  });
}
