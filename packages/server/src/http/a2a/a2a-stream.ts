import { A2aError, type A2aVersion, sseErrorFrame, sseResultFrame, streamResult } from '@awaken/protocol-a2a';
import type { Logger } from 'pino';
import type { TaskFlow } from './a2a-flows';

const encoder = new TextEncoder();

/**
 * A task flow as an A2A SSE response: the task snapshot first, then one frame per status or
 * artifact update, every frame a JSON-RPC response carrying the request's id in the request's
 * version; the stream closes after the interrupted or terminal status (no `[DONE]`). A comment goes
 * out every `keepAliveMs` while nothing else does. A client going away stops the reader, never the run.
 */
export function taskStreamResponse(
  flow: TaskFlow,
  rpc: { id: string | number | null; version: A2aVersion },
  options: { keepAliveMs: number; log: Logger; headers?: Record<string, string> },
): Response {
  const iterator = flow.events?.[Symbol.asyncIterator]();
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  // set by each keep-alive tick, cleared by each write: a comment goes out only after a quiet tick
  let quiet = false;
  const frame = (response: Parameters<typeof streamResult>[0]) =>
    encoder.encode(sseResultFrame(rpc.id, streamResult(response, rpc.version)));
  const finish = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    try {
      controller.close();
    } catch {
      // the client already went away
    }
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(frame({ task: flow.snapshot }));
      timer = setInterval(() => {
        if (closed) return;
        if (quiet) controller.enqueue(encoder.encode(': keep-alive\n\n'));
        quiet = true;
      }, options.keepAliveMs);
      if (!iterator) finish(controller);
    },
    async pull(controller) {
      if (closed || !iterator) return;
      try {
        // a pull that enqueues nothing is not called again: read until an event makes a frame
        for (;;) {
          const next = await iterator.next();
          if (next.done || closed) return finish(controller);
          const updates = flow.projection.apply(next.value);
          for (const update of updates) controller.enqueue(frame(update));
          if (next.value.type === 'run_finish') {
            await iterator.return?.();
            return finish(controller);
          }
          if (updates.length > 0) {
            quiet = false;
            return;
          }
        }
      } catch (error) {
        options.log.error({ runId: flow.runId, err: error }, 'a2a stream failed');
        const failure = new A2aError(
          'internal_error',
          'the task stream failed; resubscribe with SubscribeToTask',
        );
        if (!closed) controller.enqueue(encoder.encode(sseErrorFrame(rpc.id, failure)));
        finish(controller);
      }
    },
    async cancel() {
      closed = true;
      clearInterval(timer);
      await iterator?.return?.();
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

/** A blocking send: waits for the flow's events to end (interrupted or terminal), then resolves. */
export async function drain(flow: TaskFlow): Promise<void> {
  if (!flow.events) return;
  for await (const event of flow.events) {
    if (event.type === 'run_finish') break;
  }
}
