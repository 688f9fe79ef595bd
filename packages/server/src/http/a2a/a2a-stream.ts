import type { AgentEvent } from '@awaken/contract';
import { A2aError, type A2aVersion, sseErrorFrame, sseResultFrame, streamResult } from '@awaken/protocol-a2a';
import type { Logger } from 'pino';
import type { MailboxService } from '../../types';
import type { TaskFlow } from './a2a-turns';

const encoder = new TextEncoder();
/** Events read from the log at a time: a client that stops reading holds one page. */
const PAGE = 256;

/**
 * Reads a run's events after `afterSeq` from the store's event log, a page at a time (whichever
 * process executes the run), until the activation's `run_finish`; a page is `[]` when nothing came
 * within `waitMs`; `undefined` once there is nothing more to read.
 */
export function eventPages(
  service: MailboxService,
  runId: string,
  afterSeq: number,
  options: { waitMs: number; signal: AbortSignal },
): () => Promise<AgentEvent[] | undefined> {
  const { eventLog } = service.stores;
  let seq = afterSeq;
  let ended = false;
  return async () => {
    if (ended || options.signal.aborted) return undefined;
    const events = await eventLog.tail(runId, {
      afterSeq: seq,
      waitMs: options.waitMs,
      limit: PAGE,
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
  const reader = new AbortController();
  const stop = () => reader.abort();
  options.signal.addEventListener('abort', stop, { once: true });
  const next =
    flow.afterSeq === undefined
      ? undefined
      : eventPages(service, flow.runId, flow.afterSeq, {
          waitMs: options.keepAliveMs,
          signal: reader.signal,
        });
  const frame = (response: Parameters<typeof streamResult>[0]) =>
    sseResultFrame(rpc.id, streamResult(response, rpc.version));
  let closed = false;
  const close = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    closed = true;
    options.signal.removeEventListener('abort', stop);
    try {
      controller.close();
    } catch {
      // the client already went away
    }
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(frame({ task: flow.snapshot })));
      if (!next) close(controller);
    },
    async pull(controller) {
      if (closed || !next) return;
      try {
        const page = await next();
        if (page === undefined) return close(controller);
        // a pull must enqueue something or it is not called again: a quiet page sends a comment
        if (page.length === 0) return controller.enqueue(encoder.encode(': keep-alive\n\n'));
        let chunk = '';
        for (const event of page) for (const update of flow.projection.apply(event)) chunk += frame(update);
        controller.enqueue(encoder.encode(chunk || ': progress\n\n'));
        if (page.at(-1)?.type === 'run_finish') close(controller);
      } catch (error) {
        if (reader.signal.aborted) return close(controller);
        options.log.error({ runId: flow.runId, err: error }, 'a2a stream failed');
        const failure = new A2aError(
          'internal_error',
          'the task stream failed; resubscribe with SubscribeToTask',
        );
        controller.enqueue(encoder.encode(sseErrorFrame(rpc.id, failure)));
        close(controller);
      }
    },
    cancel() {
      closed = true;
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

/** A blocking send: reads the flow's events until the activation ends (interrupted or terminal). */
export async function drain(service: MailboxService, flow: TaskFlow, signal: AbortSignal): Promise<void> {
  if (flow.afterSeq === undefined) return;
  const next = eventPages(service, flow.runId, flow.afterSeq, { waitMs: 1_000, signal });
  while ((await next()) !== undefined) {
    // pages are only waited through; the stored run answers
  }
}
