import type { Context } from 'hono';
import type { HttpMetrics } from '../http-metrics';
import type { HttpEnv } from '../http-types';
import { runEventStream } from '../sse/run-event-stream';
import { sseResponse } from '../sse/sse-response';
import { idHeaders } from './id-headers';

/** What `POST /v1/runs` and `POST /v1/runs/:id/fork` answer for a run they just submitted. */
export interface SubmittedRunResponseInput {
  run: { runId: string; threadId: string; dispatchId: string };
  /** `false`: 202 with the ids (and `extra`); otherwise the run's event stream (SSE). */
  stream: boolean | undefined;
  extra?: Record<string, unknown>;
  metrics: HttpMetrics;
  keepAliveMs: number;
}

/**
 * The answer to a submit: with `stream: false`, 202 and the run's ids at once; by default its events
 * as SSE until it waits or ends — taken from this process when it executes the run (it follows them
 * in memory), else from the event log.
 */
export function submittedRunResponse(c: Context<HttpEnv>, input: SubmittedRunResponseInput): Response {
  const { run } = input;
  Object.assign(c.var.ids, { threadId: run.threadId, runId: run.runId, dispatchId: run.dispatchId });
  const submitted = { runId: run.runId, threadId: run.threadId, dispatchId: run.dispatchId, ...input.extra };
  if (input.stream === false) return c.json(submitted, 202);
  const { service } = c.var;
  // the run executes here: its stream takes the events this process follows, not the log's
  const followPages = service.followPages?.bind(service);
  const events = runEventStream({
    service,
    runId: run.runId,
    afterSeq: 0,
    keepAliveMs: input.keepAliveMs,
    signal: c.req.raw.signal,
    metrics: input.metrics,
    log: c.var.log,
    ...(followPages ? { follow: (signal: AbortSignal) => followPages(run.runId, { signal }) } : {}),
  });
  return sseResponse(events, idHeaders(run));
}
