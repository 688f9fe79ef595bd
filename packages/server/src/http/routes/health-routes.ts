import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { MailboxService } from '../../types';
import type { HttpMetrics } from '../http-metrics';
import type { HttpEnv } from '../http-types';
import { json } from '../schemas/common-schemas';

const tags = ['Operations'];
const STORES = ['threadRuns', 'mailbox', 'eventLog', 'inbox'] as const;
type StoreName = (typeof STORES)[number];
const PROBE_ID = '__awaken_health_probe__';

const healthSchema = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    stores: z.record(z.string(), z.enum(['ok', 'unavailable'])),
  })
  .openapi('Health');

const health = createRoute({
  method: 'get',
  path: '/health',
  tags,
  summary: 'Readiness: every store of every tenant answers (503 when one does not)',
  responses: { 200: json(healthSchema, 'Every store answers'), 503: json(healthSchema, 'A store is down') },
});

const live = createRoute({
  method: 'get',
  path: '/health/live',
  tags,
  summary: 'Liveness: the process serves requests',
  responses: { 200: json(z.object({ status: z.literal('ok') }), 'Alive') },
});

const metricsRoute = createRoute({
  method: 'get',
  path: '/metrics',
  tags,
  summary: 'Prometheus metrics (text exposition format); behind the metrics token when tokens are configured',
  responses: {
    200: { description: 'Metrics', content: { 'text/plain': { schema: z.string() } } },
    401: { description: 'Missing or wrong metrics token' },
  },
});

function probe(service: MailboxService, store: StoreName): Promise<unknown> {
  const { stores } = service;
  switch (store) {
    case 'threadRuns':
      return stores.threadRuns.getThread(PROBE_ID);
    case 'mailbox':
      return stores.mailbox.now();
    case 'eventLog':
      return stores.eventLog.lastSeq(PROBE_ID);
    case 'inbox':
      return stores.inbox.peek(PROBE_ID);
  }
}

async function withTimeout(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealthRoutes(
  app: OpenAPIHono<HttpEnv>,
  deps: { tenants: Record<string, MailboxService>; metrics: HttpMetrics; timeoutMs: number },
): void {
  app.openapi(health, async (c) => {
    const results: Record<string, 'ok' | 'unavailable'> = {};
    const services = Object.values(deps.tenants);
    await Promise.all(
      STORES.map(async (store) => {
        const answers = await Promise.all(
          services.map((service) => withTimeout(probe(service, store), deps.timeoutMs)),
        );
        results[store] = answers.every(Boolean) ? 'ok' : 'unavailable';
      }),
    );
    const ok = Object.values(results).every((value) => value === 'ok');
    if (!ok) c.var.log.warn({ stores: results }, 'health check failed');
    return c.json({ status: ok ? 'ok' : 'unavailable', stores: results }, ok ? 200 : 503);
  });

  app.openapi(live, (c) => c.json({ status: 'ok' as const }, 200));

  app.openapi(metricsRoute, async (c) => {
    const text = await deps.metrics.registry.metrics();
    return c.text(text, 200, { 'content-type': deps.metrics.registry.contentType });
  });
}
