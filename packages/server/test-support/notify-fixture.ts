import { createMemoryStores } from '@awaken/store-memory';
import { pino } from 'pino';
import { createMailboxService } from '../src/create-mailbox-service';
import { type HttpApp, createHttpApp } from '../src/http/create-http-app';
import {
  type NotificationOutbox,
  type NotificationStores,
  createNotificationOutbox,
} from '../src/notifications/create-notification-outbox';
import { type DeliveryWorker, startDeliveryWorker } from '../src/notifications/start-delivery-worker';
import type { WebhookEndpointInput } from '../src/notifications/webhook-endpoint';
import type { MailboxService } from '../src/types';
import { type Counters, memoryCounters } from './counters';
import { AGENT_ID, scenarioAgent } from './scenario-agent';
import { subAgentScenario } from './sub-agent-scenario';

export const TOKEN = 'acme-token-0123456789abcdef';
export const SLACK_SECRET = 'slack-signing-secret-0123456789';
export const PUBLIC_URL = 'http://awaken.test';

export interface NotifyFixture {
  http: HttpApp;
  service: MailboxService;
  outbox: NotificationOutbox;
  counters: Counters;
  /** Starts a run over HTTP and reads its stream until it waits or ends. */
  run(input: string, agentId?: string): Promise<{ runId: string; threadId: string }>;
  json(path: string, init?: { method?: string; body?: unknown }): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** One tenant (`acme`, memory stores) with webhook endpoints, a delivery worker and the Slack route. */
export async function createNotifyFixture(
  endpoints: WebhookEndpointInput[],
  options: {
    maxAttempts?: number;
    baseDelayMs?: number;
    timeoutMs?: number;
    /** The delivery stores (default: fresh memory stores). */
    notifyStores?: NotificationStores;
    /** The delivery worker's retention of ended deliveries and sweep period (default: never purged). */
    retainDeliveredMs?: number | null;
    purgeEveryMs?: number;
  } = {},
): Promise<NotifyFixture> {
  const counters = memoryCounters();
  const outbox = createNotificationOutbox({
    tenant: 'acme',
    endpoints,
    stores: options.notifyStores ?? createMemoryStores(),
    maxAttempts: options.maxAttempts ?? 4,
  });
  const service = createMailboxService({
    agents: [scenarioAgent(counters), ...subAgentScenario(counters)],
    concurrency: 2,
    leaseMs: 2_000,
    idleWaitMs: 50,
    retry: { baseDelayMs: 20, maxDelayMs: 50, jitter: 0 },
    notifications: outbox,
  });
  await service.start();
  const http = createHttpApp({
    tenants: { acme: service },
    tokens: [{ token: TOKEN, tenant: 'acme', subject: 'alice' }],
    logger: pino({ level: 'silent' }),
    links: { secret: 'link-secret-0123456789abcdef0123456789' },
    notifications: { outboxes: { acme: outbox }, slack: { signingSecret: SLACK_SECRET } },
  });
  const worker: DeliveryWorker = startDeliveryWorker({
    outbox,
    links: http.approvalLinks(PUBLIC_URL),
    idleWaitMs: 20,
    timeoutMs: options.timeoutMs ?? 2_000,
    retry: { baseDelayMs: options.baseDelayMs ?? 100, maxDelayMs: 2_000 },
    retainDeliveredMs: options.retainDeliveredMs ?? null,
    ...(options.purgeEveryMs === undefined ? {} : { purgeEveryMs: options.purgeEveryMs }),
  });
  const json: NotifyFixture['json'] = async (path, init = {}) => {
    const response = await http.app.request(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    http,
    service,
    outbox,
    counters,
    async run(input, agentId = AGENT_ID) {
      const response = await http.app.request('/v1/runs', {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ agentId, input }),
      });
      if (response.status !== 200) throw new Error(`start run: ${response.status} ${await response.text()}`);
      await response.text();
      return {
        runId: response.headers.get('x-run-id') ?? '',
        threadId: response.headers.get('x-thread-id') ?? '',
      };
    },
    json,
    async close() {
      await worker.stop();
      await service.stop({ graceMs: 1_000 });
    },
  };
}
