import { AwakenError, MAX_JSON_DEPTH, formatZodIssues } from '@awaken/contract';
import { A2aError, rpcErrorResponse, rpcIdOf } from '@awaken/protocol-a2a';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { pino } from 'pino';
import { errorBody, toHttpError } from './error-table';
import { type HttpMetrics, createHttpMetrics } from './http-metrics';
import type { HttpAppOptions, HttpEnv } from './http-types';
import { authenticate } from './middleware/authenticate';
import { type DeepJson, checkJsonBody } from './middleware/check-json-body';
import { capStreams, countEveryStream, startsStream } from './middleware/cap-streams';
import { limitBody } from './middleware/limit-body';
import { metricsAccess } from './middleware/metrics-access';
import { requestLog } from './middleware/request-log';
import { requireScope } from './middleware/require-scope';
import { traceRequests } from './middleware/trace-requests';
import { registerAgUiRoutes } from './ag-ui/ag-ui-routes';
import { registerA2aRoutes } from './a2a/a2a-routes';
import { registerAiSdkRoutes } from './ai-sdk/ai-sdk-routes';
import { registerCommandRoutes } from './routes/command-routes';
import { registerIssueLinkRoute } from './links/issue-link-route';
import { registerLinkAnswerRoutes } from './links/link-answer-routes';
import { createLinkSigner, linkPath } from './links/link-signer';
import { registerDecisionRecordRoutes } from './routes/decision-record-routes';
import { registerRecordingRoutes } from './routes/recording-routes';
import { registerDecisionRoutes } from './routes/decision-routes';
import { registerHealthRoutes } from './routes/health-routes';
import { registerAgentRoutes } from './routes/agent-routes';
import { registerInboxRoutes } from './routes/inbox-routes';
import { registerRunListRoutes } from './routes/run-list-routes';
import { registerMailboxRoutes } from './routes/mailbox-routes';
import { registerMailboxViewRoutes } from './routes/mailbox-view-routes';
import { registerRunRoutes } from './routes/run-routes';
import { registerBranchRoutes } from './routes/branch-routes';
import { registerForkRoutes } from './routes/fork-routes';
import { registerThreadRoutes } from './routes/thread-routes';
import { StreamSlots } from './sse/stream-slots';
import { registerThreadEventRoutes } from './routes/thread-event-routes';
import { registerApiReferenceRoutes } from './reference/api-reference-routes';
import type { ApprovalLinks } from '../notifications/approval-links';
import { registerDeliveryRoutes } from '../notifications/delivery-routes';
import { registerSlackInteractionRoute } from '../notifications/slack/slack-interaction-route';

/** The HTTP API of an Awaken deployment: a Hono app, plus its metrics. */
export interface HttpApp {
  /** Serve it with any Hono adapter, e.g. `serve({ fetch: app.fetch })` from `@hono/node-server`. */
  app: OpenAPIHono<HttpEnv>;
  fetch: (request: Request) => Response | Promise<Response>;
  metrics: HttpMetrics;
  /**
   * Signed approval links as `POST …/links` issues them (the same key), for notifications: absolute
   * URLs under `links.publicUrl`, else under `baseUrl` (the URL the server listens on).
   */
  approvalLinks(baseUrl?: string): ApprovalLinks;
}

type ValidationResult =
  | { success: true }
  | { success: false; error: { issues: readonly unknown[] }; target?: string };

function validationFailed(result: ValidationResult, c: Context<HttpEnv>) {
  if (result.success) return undefined;
  const issues = result.error.issues as Parameters<typeof formatZodIssues>[0];
  const where = result.target === 'json' ? 'body' : (result.target ?? 'request');
  const fields = issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
  return c.json(
    errorBody('validation_failed', `invalid ${where}: ${formatZodIssues(issues)}`, { issues: fields }),
    422,
  );
}

/** A body nested deeper than a stored JSON value may be: refused like any invalid field. */
async function tooDeep(c: Context<HttpEnv>, { field, maxDepth }: DeepJson) {
  const message = `JSON nested deeper than ${maxDepth} levels`;
  // the A2A JSON-RPC endpoints answer in JSON-RPC, with the request's id when it has one
  if (c.req.path === '/v1/a2a' || c.req.path.startsWith('/v1/a2a/agents/')) {
    const id = rpcIdOf(await c.req.json().catch(() => null));
    const detail = `invalid request: ${field ? `${field}: ` : ''}${message}`;
    return c.json(rpcErrorResponse(id, new A2aError('invalid_request', detail)));
  }
  return c.json(
    errorBody('validation_failed', `invalid body: ${field ? `${field}: ` : ''}${message}`, {
      issues: [{ path: field, message }],
    }),
    422,
  );
}

function httpExceptionBody(error: HTTPException) {
  switch (error.status) {
    case 400:
      return errorBody('malformed_json', 'the request body is not valid JSON');
    case 413:
      return errorBody('payload_too_large', 'the request body is over the size limit');
    case 415:
      return errorBody('unsupported_media_type', 'send the body as application/json');
    case 401:
      return errorBody('unauthorized', 'a valid bearer token is required');
    default:
      return errorBody(error.status < 500 ? 'validation_failed' : 'internal', error.message);
  }
}

/**
 * Creates the HTTP API over one mailbox service per tenant: threads, messages, runs with resumable
 * event streams (SSE), decisions, run commands and the mailbox, under `/v1` behind bearer tokens;
 * `/health`, `/health/live`, `/metrics` (behind `metricsToken` when tokens are configured),
 * `/openapi.json` and the API reference at `/reference`.
 * Errors are `{ error: { code, message } }`: a caller's mistake is a 4xx, never a 500, and no
 * response carries a stack trace.
 */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  const tenants = options.tenants;
  const logger = options.logger ?? pino({ level: 'silent' });
  const metrics = createHttpMetrics({
    tenants,
    threadSample: options.metricsThreadSample ?? 200,
    ...(options.registry ? { registry: options.registry } : {}),
  });
  const limit = options.bodyLimitBytes ?? 1024 * 1024;
  const app = new OpenAPIHono<HttpEnv>({ defaultHook: validationFailed as never });

  app.use('*', requestLog(logger, metrics));
  if (options.corsOrigins) {
    const origins = options.corsOrigins;
    app.use(
      '*',
      cors({
        origin: origins === '*' ? '*' : [...origins],
        allowHeaders: [
          'authorization',
          'content-type',
          'last-event-id',
          'x-request-id',
          'a2a-version',
          'a2a-extensions',
        ],
        exposeHeaders: ['x-run-id', 'x-thread-id', 'x-request-id', 'retry-after'],
        maxAge: 600,
      }),
    );
  }
  app.use('*', traceRequests());
  app.use(
    '*',
    limitBody(limit, (c) =>
      c.json(errorBody('payload_too_large', `the request body is over ${limit} bytes`), 413),
    ),
  );
  app.onError((error, c) => {
    if (error instanceof HTTPException) {
      const body = httpExceptionBody(error);
      return c.json(body, Math.min(error.status, 500) as 400);
    }
    const { status, body } = toHttpError(error);
    if (AwakenError.isInstance(error) && error.retryAfterMs !== undefined) {
      c.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))));
    }
    if (status >= 500) c.get('log')?.error({ err: error }, 'request failed');
    return c.json(body, status as 500);
  });
  app.notFound((c) => c.json(errorBody('route_not_found', `no route ${c.req.method} ${c.req.path}`), 404));

  app.use(
    '/metrics',
    metricsAccess({ metricsToken: options.metricsToken, tenantTokens: options.tokens?.length ?? 0 }),
  );
  registerHealthRoutes(app, { tenants, metrics, timeoutMs: options.healthTimeoutMs ?? 2000 });
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: { title: options.info?.title ?? 'Awaken API', version: options.info?.version ?? '0.1.0' },
    security: [{ bearer: [] }],
  });
  registerApiReferenceRoutes(app, '/openapi.json');

  app.use(
    '/v1/*',
    authenticate({
      tokens: options.tokens ?? [],
      openTenant: options.openTenant ?? 'default',
      services: tenants,
    }),
  );
  app.use('/v1/*', requireScope());
  // before any route's (recursive) validation sees the body; no stored JSON value nests deeper
  app.use('/v1/*', checkJsonBody(MAX_JSON_DEPTH, tooDeep));
  const slots = new StreamSlots(options.maxStreamsPerTenant ?? 100);
  // outermost: an event stream no capStreams below counted still takes a slot when it is answered
  app.use('/v1/*', countEveryStream(slots));
  app.use('/v1/runs', capStreams(slots, startsStream));
  app.use('/v1/runs/:runId/fork', capStreams(slots, startsStream));
  for (const path of [
    '/v1/runs/:runId/events',
    '/v1/ai-sdk/chat',
    '/v1/ai-sdk/agents/:agentId/chat',
    '/v1/ai-sdk/chat/:id/stream',
    '/v1/ag-ui/run',
    '/v1/ag-ui/connect',
    '/v1/ag-ui/agents/:agentId/run',
    '/v1/ag-ui/agents/:agentId/connect',
    '/v1/inbox/events',
    '/v1/threads/:threadId/events',
  ]) {
    app.use(path, capStreams(slots));
  }
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  registerThreadRoutes(app);
  registerThreadEventRoutes(app, { metrics, keepAliveMs });
  registerBranchRoutes(app);
  registerAgentRoutes(app, {
    ...(options.aiSdk?.defaultAgentId ? { defaultAgentId: options.aiSdk.defaultAgentId } : {}),
  });
  registerRunRoutes(app, { metrics, options: { keepAliveMs } });
  registerForkRoutes(app, { metrics, keepAliveMs });
  registerDecisionRoutes(app);
  registerDecisionRecordRoutes(app);
  registerRecordingRoutes(app);
  const signer = createLinkSigner(options.links?.secret);
  registerIssueLinkRoute(app, {
    signer,
    ...(options.links?.publicUrl ? { publicUrl: options.links.publicUrl } : {}),
  });
  registerLinkAnswerRoutes(app, { signer, tenants });
  registerCommandRoutes(app);
  registerMailboxRoutes(app);
  registerMailboxViewRoutes(app);
  registerInboxRoutes(app, { keepAliveMs });
  registerRunListRoutes(app);
  registerAiSdkRoutes(app, {
    keepAliveMs,
    ...(options.aiSdk?.defaultAgentId ? { defaultAgentId: options.aiSdk.defaultAgentId } : {}),
  });
  registerAgUiRoutes(app, { keepAliveMs, defaultAgentId: options.aiSdk?.defaultAgentId });
  if (options.a2a) registerA2aRoutes(app, { keepAliveMs, slots, ...options.a2a });
  registerDeliveryRoutes(app, options.notifications?.outboxes ?? {});
  const slack = options.notifications?.slack;
  if (slack) registerSlackInteractionRoute(app, { signingSecret: slack.signingSecret, signer, tenants });
  return {
    app,
    fetch: (request) => app.fetch(request),
    metrics,
    approvalLinks: (baseUrl) => ({
      urlFor({ tenant, runId, ticketId, approver, issuedBy, expiresAt }) {
        const claims = { tenant, runId, ticketId, expiresAt, ...(approver ? { approver } : {}), issuedBy };
        const base = (options.links?.publicUrl ?? baseUrl ?? '').replace(/\/$/, '');
        return `${base}${linkPath(claims, signer.sign(claims))}`;
      },
    }),
  };
}
