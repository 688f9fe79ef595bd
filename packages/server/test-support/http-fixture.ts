import type { AgentEvent } from '@awaken/contract';
import { type Logger, pino } from 'pino';
import type { A2aOptions } from '../src/http/a2a/a2a-agents';
import { createHttpApp } from '../src/http/create-http-app';
import type { HttpApp } from '../src/http/create-http-app';
import { createMailboxService } from '../src/create-mailbox-service';
import type { MailboxService, ServiceStores } from '../src/types';
import { type Counters, memoryCounters } from './counters';
import { AGENT_ID, scenarioAgent } from './scenario-agent';
import { subAgentScenario } from './sub-agent-scenario';

export { AGENT_ID };

export const TOKENS = {
  acme: 'acme-token-0123456789abcdef',
  globex: 'globex-token-0123456789abcdef',
  /** The scrape token of `/metrics` (not a tenant's). */
  metrics: 'metrics-token-0123456789abcdef',
} as const;

export interface HttpFixture {
  http: HttpApp;
  services: Record<'acme' | 'globex', MailboxService>;
  counters: Counters;
  /** A request as tenant `acme` (default) or `globex`, or with no token (`null`). */
  call(
    path: string,
    init?: {
      method?: string;
      body?: unknown;
      raw?: string;
      token?: string | null;
      headers?: Record<string, string>;
    },
  ): Promise<Response>;
  json<T = any>(
    path: string,
    init?: Parameters<HttpFixture['call']>[1],
  ): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

/** Two tenants on memory stores behind bearer tokens, running the scenario agent. */
export async function createHttpFixture(
  options: {
    bodyLimitBytes?: number;
    keepAliveMs?: number;
    corsOrigins?: readonly string[];
    maxStreamsPerTenant?: number;
    stores?: Partial<Record<'acme' | 'globex', ServiceStores>>;
    logger?: Logger;
    a2a?: A2aOptions;
  } = {},
): Promise<HttpFixture> {
  const counters = memoryCounters();
  const make = (tenant: 'acme' | 'globex') =>
    createMailboxService({
      agents: [scenarioAgent(counters), ...subAgentScenario(counters)],
      concurrency: 2,
      leaseMs: 2_000,
      idleWaitMs: 100,
      ...(options.stores?.[tenant] ? { stores: options.stores[tenant] } : {}),
    });
  const services = { acme: make('acme'), globex: make('globex') };
  await Promise.all(Object.values(services).map((service) => service.start()));
  const http = createHttpApp({
    tenants: services,
    tokens: [
      { token: TOKENS.acme, tenant: 'acme', subject: 'alice' },
      { token: TOKENS.globex, tenant: 'globex' },
    ],
    logger: options.logger ?? pino({ level: 'silent' }),
    metricsToken: TOKENS.metrics,
    keepAliveMs: options.keepAliveMs ?? 200,
    ...(options.bodyLimitBytes ? { bodyLimitBytes: options.bodyLimitBytes } : {}),
    ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
    ...(options.maxStreamsPerTenant ? { maxStreamsPerTenant: options.maxStreamsPerTenant } : {}),
    ...(options.a2a ? { a2a: options.a2a } : {}),
  });
  const call: HttpFixture['call'] = (path, init = {}) => {
    const token = init.token === undefined ? TOKENS.acme : init.token;
    const headers: Record<string, string> = { ...init.headers };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | undefined = init.raw;
    if (init.body !== undefined) body = JSON.stringify(init.body);
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    return Promise.resolve(
      http.app.request(path, {
        method: init.method ?? (body === undefined ? 'GET' : 'POST'),
        headers,
        ...(body === undefined ? {} : { body }),
      }),
    );
  };
  return {
    http,
    services,
    counters,
    call,
    async json(path, init) {
      const response = await call(path, init);
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    async close() {
      await Promise.all(Object.values(services).map((service) => service.stop({ graceMs: 2_000 })));
    },
  };
}

/** The events of an SSE body, with the ids it sent. */
export function parseSse(text: string): { ids: number[]; events: AgentEvent[]; comments: number } {
  const ids: number[] = [];
  const events: AgentEvent[] = [];
  let comments = 0;
  for (const frame of text.split('\n\n')) {
    for (const line of frame.split('\n')) {
      if (line.startsWith(':')) comments += 1;
      else if (line.startsWith('id: ')) ids.push(Number(line.slice(4)));
      else if (line.startsWith('data: ')) events.push(JSON.parse(line.slice(6)));
    }
  }
  return { ids, events, comments };
}

/** Starts a run over HTTP and reads its stream to the end (it waits or is done). */
export async function startRun(
  fixture: HttpFixture,
  body: Record<string, unknown>,
  token?: string,
): Promise<{ runId: string; threadId: string; events: AgentEvent[]; ids: number[] }> {
  const response = await fixture.call('/v1/runs', {
    body: { agentId: AGENT_ID, ...body },
    ...(token ? { token } : {}),
  });
  if (response.status !== 200) throw new Error(`start run: ${response.status} ${await response.text()}`);
  const { events, ids } = parseSse(await response.text());
  return {
    runId: response.headers.get('x-run-id') ?? '',
    threadId: response.headers.get('x-thread-id') ?? '',
    events,
    ids,
  };
}
