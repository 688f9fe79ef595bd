import type { Context, MiddlewareHandler } from 'hono';
import { type OtelApi, type OtelSpan, loadOtel } from '../../tracing/load-otel';
import type { HttpEnv } from '../http-types';

function finish(api: OtelApi, span: OtelSpan, c: Context<HttpEnv>): void {
  if (span.isRecording()) {
    const route = c.req.routePath;
    if (route) {
      span.setAttributes({ 'http.route': route });
      span.updateName(`${c.req.method} ${route}`);
    }
    span.setAttributes({
      'http.response.status_code': c.res.status,
      'awaken.tenant': c.get('caller')?.tenant ?? '',
    });
    if (c.res.status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
  }
  span.end();
}

/**
 * A server span per request (`<METHOD> <route>`, HTTP semantic conventions) when
 * `@opentelemetry/api` is installed; a pass-through otherwise.
 */
export function traceRequests(): MiddlewareHandler<HttpEnv> {
  const api = loadOtel();
  if (!api) return async (_c, next) => next();
  const tracer = api.trace.getTracer('@awaken/server');
  return async (c, next) => {
    const span = tracer.startSpan(c.req.method, {
      kind: 1, // SpanKind.SERVER
      attributes: { 'http.request.method': c.req.method, 'url.path': c.req.path },
    });
    try {
      await next();
    } finally {
      finish(api, span, c);
    }
  };
}
