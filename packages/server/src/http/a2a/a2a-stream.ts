import { type AgentEvent, formatSseFrame, toSseStream } from '@awaken/contract';
import { A2aError, type A2aVersion, sseErrorFrame, sseResultFrame, streamResult } from '@awaken/protocol-a2a';
import type { Logger } from 'pino';
import type { MailboxService } from '../../types';
import { PageSize } from '../sse/page-size';
import { sseResponse } from '../sse/sse-response';
import type { TaskFlow } from './a2a-turns';

/** Written for a page of events that changed nothing a client sees (the task's progress). */
const PROGRESS = formatSseFrame({ comment: 'progress' });

/**
 * Reads a run's events after `afterSeq` from the store's event log, a page at a time (whichever
 * process executes the run), until the activation's `run_finish`; a page is `[]` when nothing came
 * within `waitMs`; `undefined` once there is nothing more to read. A page holds at most
 * `pages.limit` events: a client that stops reading holds one page.
 */
export function eventPages(
  service: MailboxService,
  runId: string,
  afterSeq: number,
  options: { waitMs: number; signal: AbortSignal; pages?: PageSize },
): () => Promise<AgentEvent[] | undefined> {
  const pages = options.pages ?? new PageSize();
  const { eventLog } = service.stores;
  let seq = afterSeq;
  let ended = false;
  return async () => {
    if (ended || options.signal.aborted) return undefined;
    const events = await eventLog.tail(runId, {
      afterSeq: seq,
      waitMs: options.waitMs,
      limit: pages.limit,
      signal: options.signal,
    });
    const page: AgentEvent[] = [];
    for (const event of events) {
      if (event.seq <= seq) continue;
      seq = event.seq;
      page.push(event);
      if (event.type === 'run_finish') {
        ended = true;
        break;
      }
    }
    if (page.length === 0 && (await eventLog.isFinished(runId)) && (await eventLog.lastSeq(runId)) <= seq) {
      ended = true;
      return undefined;
    }
    return page;
  };
}

/**
 * A task flow as an A2A SSE response: the task snapshot first, then one frame per status or
 * artifact update — a page of the event log per write — every frame a JSON-RPC response carrying
 * the request's id in the request's version; the stream closes after the interrupted or terminal
 * status (no `[DONE]`). A comment goes out every `keepAliveMs` while nothing else does. A client
 * going away stops the reader, never the run.
 */
export function taskStreamResponse(
  service: MailboxService,
  flow: TaskFlow,
  rpc: { id: string | number | null; version: A2aVersion },
  options: { keepAliveMs: number; log: Logger; signal: AbortSignal; headers?: Record<string, string> },
): Response {
  const body = toSseStream(
    (cancelled) =>
      taskFrames(service, flow, rpc, { ...options, signal: AbortSignal.any([cancelled, options.signal]) }),
    { encode: (chunk: string) => chunk, keepAliveMs: options.keepAliveMs },
  );
  return sseResponse(body, options.headers);
}

/** The stream's writes: the snapshot, then the frames of each page of events, or an error frame. */
async function* taskFrames(
  service: MailboxService,
  flow: TaskFlow,
  rpc: { id: string | number | null; version: A2aVersion },
  options: { keepAliveMs: number; log: Logger; signal: AbortSignal },
): AsyncGenerator<string> {
  const frame = (response: Parameters<typeof streamResult>[0]) =>
    sseResultFrame(rpc.id, streamResult(response, rpc.version));
  yield frame({ task: flow.snapshot });
  if (flow.afterSeq === undefined) return;
  const pages = new PageSize();
  const next = eventPages(service, flow.runId, flow.afterSeq, {
    waitMs: options.keepAliveMs,
    signal: options.signal,
    pages,
  });
  try {
    for (;;) {
      const page = await next();
      if (page === undefined) return;
      // a quiet page: the stream sends the keep-alive
      if (page.length === 0) continue;
      let chunk = '';
      for (const event of page) for (const update of flow.projection.apply(event)) chunk += frame(update);
      pages.observe(page.length, chunk.length);
      yield chunk || PROGRESS;
      if (page.at(-1)?.type === 'run_finish') return;
    }
  } catch (error) {
    if (options.signal.aborted) return;
    options.log.error({ runId: flow.runId, err: error }, 'a2a stream failed');
    const failure = new A2aError(
      'internal_error',
      'the task stream failed; resubscribe with SubscribeToTask',
    );
    yield sseErrorFrame(rpc.id, failure);
  }
}

/** A blocking send: reads the flow's events until the activation ends (interrupted or terminal). */
export async function drain(service: MailboxService, flow: TaskFlow, signal: AbortSignal): Promise<void> {
  if (flow.afterSeq === undefined) return;
  const next = eventPages(service, flow.runId, flow.afterSeq, { waitMs: 1_000, signal });
  while ((await next()) !== undefined) {
    // pages are only waited through; the stored run answers
  }
}
