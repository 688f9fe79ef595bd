import { randomUUID } from 'node:crypto';
import { type InferenceRequest, defineTool } from '@awaken/contract';
import type { AgentDefinition } from '@awaken/runtime';
import { createMemoryStores } from '@awaken/store-memory';
import { createPostgresStores } from '@awaken/store-postgres';
import { createRedisStores } from '@awaken/store-redis';
import { createScriptedModel } from '@awaken/testing';
import { pino } from 'pino';
import { z } from 'zod';
import { createMailboxService } from '../src/create-mailbox-service';
import { type HttpApp, createHttpApp } from '../src/http/create-http-app';
import type { MailboxService, ServiceStores } from '../src/types';

export const ECHO_AGENT = 'echo';

/** The conversation a model call was given: each message as `role:text`. */
export function transcriptOf(request: Pick<InferenceRequest, 'messages'>): string[] {
  return request.messages.flatMap((message) =>
    message.role === 'user'
      ? [`user:${message.content}`]
      : message.role === 'assistant'
        ? [`assistant:${message.text}`]
        : message.role === 'tool'
          ? [`tool:${message.toolName}`]
          : [],
  );
}

/** Which stores a branch test runs on, and how to make and drop them. */
export interface BranchBackend {
  name: string;
  create(): ServiceStores & { close?(): Promise<void> };
}

export function branchBackends(urls: { redisUrl: string; postgresUrl: string }): BranchBackend[] {
  return [
    { name: 'memory', create: () => createMemoryStores() },
    {
      name: 'Redis',
      create: () => createRedisStores({ redis: urls.redisUrl, prefix: `branch:${randomUUID()}:` }),
    },
    {
      name: 'PostgreSQL',
      create: () =>
        createPostgresStores({
          postgres: urls.postgresUrl,
          schema: `branch_${randomUUID().replaceAll('-', '').slice(0, 16)}`,
        }),
    },
  ];
}

export interface BranchFixture {
  service: MailboxService;
  http: HttpApp;
  /** Every model request, in call order. */
  requests: InferenceRequest[];
  /** The `q` of every execution of the tool `lookup`. */
  toolRuns: string[];
  call(path: string, init?: { method?: string; body?: unknown; raw?: string }): Promise<Response>;
  json<T = any>(
    path: string,
    init?: { method?: string; body?: unknown; raw?: string },
  ): Promise<{ status: number; body: T }>;
  /** A foreground run of the echo agent, read to its end; its thread and run ids. */
  run(input: string, threadId?: string): Promise<{ threadId: string; runId: string }>;
  close(): Promise<void>;
}

/**
 * The HTTP app over one service on `stores`, running an agent whose model answers
 * `re:<last user text>#<messages it was given>` and records every request. A user text holding the
 * word `tool` is first answered with a call of the tool `lookup` (counted in `toolRuns`), then with
 * the text once the result is in.
 */
export async function createBranchFixture(
  stores: ServiceStores & { close?(): Promise<void> },
): Promise<BranchFixture> {
  const model = createScriptedModel((request) => {
    const last =
      transcriptOf(request)
        .filter((line) => line.startsWith('user:'))
        .at(-1) ?? '';
    const text = last.slice('user:'.length);
    if (request.messages.at(-1)?.role === 'user' && text.split(/\s+/).includes('tool'))
      return {
        toolCalls: [{ id: `call_${request.messages.length}`, name: 'lookup', arguments: { q: text } }],
      };
    return { text: `re:${text}#${request.messages.length}` };
  });
  const toolRuns: string[] = [];
  const lookup = defineTool({
    name: 'lookup',
    description: 'looks a question up',
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => {
      toolRuns.push(q);
      return { found: q };
    },
  });
  const agents: AgentDefinition[] = [{ id: ECHO_AGENT, model, tools: [lookup] }];
  const service = createMailboxService({ agents, stores, concurrency: 1, leaseMs: 2_000, idleWaitMs: 50 });
  await service.start();
  const http = createHttpApp({ tenants: { default: service }, logger: pino({ level: 'silent' }) });
  const call: BranchFixture['call'] = (path, init = {}) => {
    const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
    return Promise.resolve(
      http.app.request(path, {
        method: init.method ?? (body === undefined ? 'GET' : 'POST'),
        ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }),
      }),
    );
  };
  return {
    service,
    http,
    requests: model.requests as InferenceRequest[],
    toolRuns,
    call,
    async json(path, init) {
      const response = await call(path, init);
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    async run(input, threadId) {
      const response = await call('/v1/runs', {
        body: {
          agentId: ECHO_AGENT,
          input,
          ifBusy: 'queue',
          ...(threadId === undefined ? {} : { threadId }),
        },
      });
      if (response.status !== 200) throw new Error(`run: ${response.status} ${await response.text()}`);
      await response.text();
      return {
        threadId: response.headers.get('x-thread-id') ?? '',
        runId: response.headers.get('x-run-id') ?? '',
      };
    },
    async close() {
      await service.stop({ graceMs: 1_000 });
      await stores.close?.();
    },
  };
}
