import { randomUUID } from 'node:crypto';
import { AwakenError, type RunDispatch, runDispatchStatusSchema } from '@awaken/contract';
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { HttpEnv } from '../http/http-types';
import { pageRequestOf } from '../http/internal/paging';
import { notFound } from '../http/internal/views';
import { apiRoutes } from '../http/schemas/api-routes';
import { conflictError, json, jsonBody, pageQuerySchema } from '../http/schemas/common-schemas';
import { purgeBodySchema } from '../http/schemas/request-schemas';
import type { NotificationOutbox } from './create-notification-outbox';

const route = apiRoutes(['Notifications']);

const deliveryViewSchema = z
  .object({
    deliveryId: z.string(),
    dispatchId: z.string(),
    endpointId: z.string().optional(),
    event: z.string().optional(),
    status: runDispatchStatusSchema,
    attemptCount: z.number(),
    maxAttempts: z.number(),
    lastError: z.string().optional(),
    nextAttemptAt: z.number().optional(),
    createdAt: z.number(),
    updatedAt: z.number(),
    requeuedAs: z.string().optional(),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('Delivery');

const list = route.get('/v1/notifications/deliveries', {
  summary: 'Webhook deliveries of the tenant with one status (dead letters by default), newest first',
  request: {
    query: pageQuerySchema.extend({ status: z.enum(runDispatchStatusSchema.options).default('dead_letter') }),
  },
  responses: {
    200: json(
      z
        .object({ items: z.array(deliveryViewSchema), nextCursor: z.string().optional() })
        .openapi('DeliveryPage'),
      'A page of deliveries',
    ),
  },
});

const retry = route.post('/v1/notifications/deliveries/{dispatchId}/retry', {
  summary: 'Send a dead-lettered delivery again (same delivery id, fresh attempts), once per dead letter',
  request: { params: z.object({ dispatchId: z.string().min(1).max(512) }) },
  responses: { 200: json(deliveryViewSchema, 'The new attempt'), ...conflictError },
});

const purge = route.post('/v1/notifications/purge', {
  summary:
    'Delete the deliveries that ended (delivered, cancelled, superseded) before `olderThan`, keeping a marker of each so none is sent again',
  request: { body: jsonBody(purgeBodySchema) },
  responses: {
    200: json(
      z.object({ marked: z.number(), purged: z.number() }).openapi('PurgedDeliveries'),
      'Markers written and dispatches removed',
    ),
  },
});

/**
 * The deliveries of each tenant's outbox over HTTP: `GET /v1/notifications/deliveries?status=` (dead
 * letters by default, with the last error and the notification they carry) and `POST
 * …/:dispatchId/retry` for a dead letter (a new dispatch of the same delivery id; a second retry of
 * the same dead letter answers the same one; not a dead letter → 409; unknown → 404). A tenant
 * without notifications lists nothing. `POST /v1/notifications/purge {olderThan}` removes ended
 * deliveries now (the delivery worker also sweeps them, see `retainDeliveredMs`).
 */
export function registerDeliveryRoutes(
  app: OpenAPIHono<HttpEnv>,
  outboxes: Readonly<Record<string, NotificationOutbox>>,
): void {
  const outboxOf = (tenant: string) => (Object.hasOwn(outboxes, tenant) ? outboxes[tenant] : undefined);

  async function viewOf(outbox: NotificationOutbox, dispatch: RunDispatch) {
    const delivery = await outbox.load(dispatch.threadId);
    return {
      deliveryId: dispatch.threadId,
      dispatchId: dispatch.dispatchId,
      ...(delivery ? { endpointId: delivery.endpointId, event: delivery.event, data: delivery.data } : {}),
      status: dispatch.status,
      attemptCount: dispatch.attemptCount,
      maxAttempts: dispatch.maxAttempts,
      ...(dispatch.lastError === undefined ? {} : { lastError: dispatch.lastError }),
      ...(dispatch.status === 'queued' ? { nextAttemptAt: dispatch.availableAt } : {}),
      createdAt: dispatch.createdAt,
      updatedAt: dispatch.updatedAt,
      ...(dispatch.requeuedDispatchId ? { requeuedAs: dispatch.requeuedDispatchId } : {}),
    };
  }

  app.openapi(list, async (c) => {
    const { status, ...query } = c.req.valid('query');
    const outbox = outboxOf(c.var.caller.tenant);
    if (!outbox) return c.json({ items: [] }, 200);
    const page = await outbox.stores.mailbox.listDispatchesByStatus(status, pageRequestOf(query));
    const items = await Promise.all(page.items.map((dispatch) => viewOf(outbox, dispatch)));
    return c.json({ items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }, 200);
  });

  app.openapi(retry, async (c) => {
    const { dispatchId } = c.req.valid('param');
    const outbox = outboxOf(c.var.caller.tenant);
    const { mailbox } = outbox?.stores ?? {};
    const dead = outbox && mailbox ? await mailbox.loadDispatch(dispatchId) : null;
    if (!outbox || !mailbox || !dead) throw notFound(`delivery ${dispatchId}`);
    if (dead.status !== 'dead_letter') {
      throw new AwakenError('conflict', `delivery ${dispatchId} is ${dead.status}, not a dead letter`);
    }
    const marked = await mailbox.markRequeued({
      dispatchId,
      runId: dead.runId,
      requeueDispatchId: `${dead.threadId}:retry:${randomUUID()}`,
    });
    const requeued = marked.requeuedDispatchId as string;
    let next = await mailbox.loadDispatch(requeued);
    if (!next) {
      try {
        next = await mailbox.enqueue({
          dispatchId: requeued,
          threadId: dead.threadId,
          runId: dead.runId,
          maxAttempts: outbox.maxAttempts,
        });
      } catch (error) {
        if (!AwakenError.hasCode(error, 'conflict')) throw error;
        next = await mailbox.loadDispatch(requeued);
      }
    }
    if (!next) throw notFound(`delivery ${requeued}`);
    return c.json(await viewOf(outbox, next), 200);
  });

  app.openapi(purge, async (c) => {
    const { olderThan } = c.req.valid('json');
    const outbox = outboxOf(c.var.caller.tenant);
    if (!outbox) return c.json({ marked: 0, purged: 0 }, 200);
    return c.json(await outbox.purgeDelivered({ olderThan }), 200);
  });
}
