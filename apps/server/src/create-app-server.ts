import type { AddressInfo } from 'node:net';
import { mountConsole } from '@awaken/console';
import { serve } from '@hono/node-server';
import {
  type DeliveryWorker,
  type HttpApp,
  type MailboxService,
  type NotificationOutbox,
  a2aAgentsOf,
  createApprovalWaitMeter,
  createHttpApp,
  createMailboxService,
  createNotificationOutbox,
  createShadowVerdictMeter,
  startDeliveryWorker,
} from '@awaken/server';
import type { Logger } from 'pino';
import type { AppConfig } from './config';
import { createModel } from './create-model';
import { createTenantStores } from './create-tenant-stores';
import { createDemoAgents } from './demo/demo-agents';

export interface AppServer {
  /** `http://host:port` it listens on. */
  url: string;
  http: HttpApp;
  services: Record<string, MailboxService>;
  /** Paths the demo's delete_file was allowed to "delete". */
  deleted: string[];
  /** Graceful: stop accepting, let activations finish within the grace period, close streams and stores. */
  stop(): Promise<void>;
}

/** Builds and starts the reference server from a validated configuration. */
export async function startAppServer(config: AppConfig, logger: Logger): Promise<AppServer> {
  const tokens = config.AWAKEN_TOKENS;
  const tenants = tokens.length > 0 ? [...new Set(tokens.map((entry) => entry.tenant))] : ['default'];
  const stores = createTenantStores({
    tenants,
    prefix: config.AWAKEN_REDIS_PREFIX,
    logger,
    schema: config.AWAKEN_PG_SCHEMA,
    notifyTenants: [...new Set(config.AWAKEN_WEBHOOKS.map((hook) => hook.tenant))],
    ...(config.REDIS_URL ? { redisUrl: config.REDIS_URL } : {}),
    ...(config.REDIS_CLUSTER_NODES ? { redisClusterNodes: config.REDIS_CLUSTER_NODES } : {}),
    ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
    ...(config.REDIS_WAIT_FOR_REPLICAS
      ? {
          waitForReplicas: {
            replicas: config.REDIS_WAIT_FOR_REPLICAS,
            timeoutMs: config.REDIS_WAIT_TIMEOUT_MS ?? 1_000,
          },
        }
      : {}),
  });
  await stores.ready();
  const { model, label } = createModel(config);
  const deleted: string[] = [];
  const agents = createDemoAgents({
    model,
    deleted,
    restartApprovalMs: config.AWAKEN_DEMO_APPROVAL_MS,
    // what a kill -9 in the middle of it would leave in doubt (an `indeterminate` ticket)
    onSendInvoice: (invoice) => logger.info({ invoice }, 'demo: sending invoice'),
    ...(config.AWAKEN_A2A_REMOTE_URL
      ? {
          remote: {
            url: config.AWAKEN_A2A_REMOTE_URL,
            ...(config.AWAKEN_A2A_REMOTE_TOKEN ? { token: config.AWAKEN_A2A_REMOTE_TOKEN } : {}),
          },
        }
      : {}),
  });
  // webhook endpoints: each tenant with some gets an outbox its runs' settlements write to
  const outboxes: Record<string, NotificationOutbox> = {};
  for (const tenant of tenants) {
    const endpoints = config.AWAKEN_WEBHOOKS.filter((hook) => hook.tenant === tenant).map(
      ({ tenant: _tenant, ...endpoint }) => endpoint,
    );
    if (endpoints.length === 0) continue;
    outboxes[tenant] = createNotificationOutbox({
      tenant,
      endpoints,
      stores: stores.notifyByTenant[tenant] as NonNullable<(typeof stores.notifyByTenant)[string]>,
      maxAttempts: config.AWAKEN_WEBHOOK_MAX_ATTEMPTS,
    });
  }
  // the verdicts of permission rules in shadow mode, counted in /metrics (awaken_shadow_verdicts_total)
  const shadowVerdicts = createShadowVerdictMeter();
  // the human waits (awaken_approval_wait_seconds, awaken.approval.wait spans), in the same registry:
  // each wait is measured by the process that sees it end, from the question's stored time
  const waits = createApprovalWaitMeter({ registry: shadowVerdicts.registry });
  const observeEvents: NonNullable<Parameters<typeof createMailboxService>[0]['observeEvents']> = (batch) => {
    shadowVerdicts.observe(batch);
    waits.observe(batch);
  };
  const services: Record<string, MailboxService> = {};
  for (const tenant of tenants) {
    const log = logger.child({ tenant });
    services[tenant] = createMailboxService({
      agents,
      stores: stores.byTenant[tenant] as NonNullable<(typeof stores.byTenant)[string]>,
      concurrency: config.AWAKEN_WORKERS,
      leaseMs: config.AWAKEN_LEASE_MS,
      onError: (error, context) => log.warn({ err: error, context }, 'service error'),
      observeEvents,
      ...(outboxes[tenant] ? { notifications: outboxes[tenant] } : {}),
    });
  }
  await Promise.all(Object.values(services).map((service) => service.start()));
  const http = createHttpApp({
    tenants: services,
    tokens,
    registry: shadowVerdicts.registry,
    openTenant: 'default',
    ...(config.AWAKEN_METRICS_TOKEN ? { metricsToken: config.AWAKEN_METRICS_TOKEN } : {}),
    bodyLimitBytes: config.AWAKEN_BODY_LIMIT,
    keepAliveMs: config.AWAKEN_KEEPALIVE_MS,
    maxStreamsPerTenant: config.AWAKEN_MAX_STREAMS,
    ...(config.AWAKEN_CORS_ORIGINS.length > 0
      ? { corsOrigins: config.AWAKEN_CORS_ORIGINS.includes('*') ? '*' : config.AWAKEN_CORS_ORIGINS }
      : {}),
    aiSdk: { defaultAgentId: 'demo' },
    links: {
      ...(config.AWAKEN_LINK_SECRET ? { secret: config.AWAKEN_LINK_SECRET } : {}),
      ...(config.AWAKEN_PUBLIC_URL ? { publicUrl: config.AWAKEN_PUBLIC_URL } : {}),
    },
    a2a: { agents: a2aAgentsOf(agents), defaultAgentId: 'demo' },
    notifications: {
      outboxes,
      ...(config.AWAKEN_SLACK_SIGNING_SECRET
        ? { slack: { signingSecret: config.AWAKEN_SLACK_SIGNING_SECRET } }
        : {}),
    },
    logger,
  });
  // the web console at `/` (the API stays under /v1, /health, /reference)
  mountConsole(http.app);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: http.fetch, port: config.PORT, hostname: config.HOST }, () =>
      resolve(started),
    );
    started.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  // deliveries go out apart from the runs, once the links they carry can point at this server
  const deliveries: DeliveryWorker[] = Object.values(outboxes).map((outbox) => {
    const log = logger.child({ tenant: outbox.tenant });
    return startDeliveryWorker({
      outbox,
      links: http.approvalLinks(url),
      timeoutMs: config.AWAKEN_WEBHOOK_TIMEOUT_MS,
      retry: { baseDelayMs: config.AWAKEN_WEBHOOK_RETRY_MS },
      retainDeliveredMs:
        config.AWAKEN_WEBHOOK_RETAIN_DAYS === 0 ? null : config.AWAKEN_WEBHOOK_RETAIN_DAYS * 86_400_000,
      onError: (error, context) => log.warn({ err: error, context }, 'webhook delivery error'),
    });
  });
  if (tokens.length === 0) {
    logger.warn(
      { host: config.HOST },
      'no AWAKEN_TOKENS configured: the API is open to every local user (loopback only)',
    );
  }
  if (!config.AWAKEN_LINK_SECRET) {
    logger.info(
      'no AWAKEN_LINK_SECRET: approval links are signed with a key of this process and stop working when it restarts',
    );
  }
  logger.info(
    {
      url,
      stores: stores.kind,
      model: label,
      tenants,
      workers: config.AWAKEN_WORKERS,
      webhooks: config.AWAKEN_WEBHOOKS.map((hook) => `${hook.tenant}/${hook.id}`),
    },
    'awaken server listening',
  );
  let stopping: Promise<void> | undefined;
  async function stop(): Promise<void> {
    logger.info('shutting down: no new connections, letting running activations finish');
    server.close();
    if ('closeIdleConnections' in server) server.closeIdleConnections();
    await Promise.all(
      Object.values(services).map((service) => service.stop({ graceMs: config.AWAKEN_SHUTDOWN_GRACE_MS })),
    );
    await Promise.all(deliveries.map((worker) => worker.stop()));
    // open event streams end here; their clients reconnect (to another process) with Last-Event-ID
    if ('closeAllConnections' in server) server.closeAllConnections();
    await stores.close();
    logger.info('stopped');
  }
  return {
    url,
    http,
    services,
    deleted,
    stop: () => {
      stopping ??= stop();
      return stopping;
    },
  };
}
