import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { HttpMetrics } from '../http-metrics';
import type { HttpEnv } from '../http-types';
import { sendableHeaders } from '../internal/id-headers';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Gives every request an id (`x-request-id` when well formed, else a new one, echoed back), a child
 * logger, and one log line when it ends: method, route, status, duration and the ids it touched —
 * tenant, thread, run, dispatch — never a message's content.
 */
export function requestLog(logger: Logger, metrics: HttpMetrics): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const started = performance.now();
    const header = c.req.header('x-request-id');
    const requestId = header && REQUEST_ID.test(header) ? header : randomUUID();
    c.header('x-request-id', requestId);
    c.set('caller', { tenant: '', subject: '', scopes: [], requestId });
    c.set('log', logger.child({ requestId }));
    c.set('ids', {});
    await next();
    // a header Node cannot write would turn this response into its own 500 after it was logged
    const unsendable = sendableHeaders(c.res);
    if (unsendable.length > 0) c.get('log').warn({ headers: unsendable }, 'response headers percent-encoded');
    const durationMs = performance.now() - started;
    const route = c.req.routePath || 'unmatched';
    metrics.observeRequest(c.req.method, route, c.res.status, durationMs / 1000);
    c.get('log').info(
      {
        method: c.req.method,
        route,
        status: c.res.status,
        durationMs: Math.round(durationMs * 10) / 10,
        ...c.get('ids'),
      },
      'request',
    );
  };
}
