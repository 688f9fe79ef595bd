/**
 * One chat-turn benchmark server in its own process, on a free loopback port; prints `{"port":N}`
 * when ready. argv[2]: `bare` (a Hono route running ai@6 `streamText` +
 * `toUIMessageStreamResponse()`), `awaken-memory` (the Awaken HTTP API over memory stores) or
 * `awaken-redis <redis url>` (over Redis stores), `awaken-redis-cluster <host:port,…>` (over Redis
 * stores on a Redis Cluster: hash-tagged keys, the mailbox sharded over its masters) or `awaken-postgres <postgres url>` (over PostgreSQL
 * stores, a schema of its own, a pool of 20). All serve the same weather model and tool.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { defineTool } from '@awaken/contract';
import { createAiSdkModelExecutor } from '@awaken/provider-ai-sdk';
import { createHttpApp, createMailboxService } from '@awaken/server';
import { createPostgresStores } from '@awaken/store-postgres';
import { createRedisClusterClient, createRedisStores } from '@awaken/store-redis';
import { serve } from '@hono/node-server';
import { type UIMessage, convertToModelMessages, stepCountIs, streamText, tool } from 'ai';
import { Hono } from 'hono';
import { z } from 'zod';
import type { ServiceStores } from '@awaken/server';
import { memoryServiceStores, redisServiceStores } from '../server-service/stores';
import { WEATHER, weatherModel } from './weather-model';

function ready(port: number): void {
  process.stdout.write(`${JSON.stringify({ port })}\n`);
}

/**
 * With AWAKEN_BENCH_PROFILE=<file>, SIGUSR2 starts the V8 CPU profiler and the next SIGUSR2 stops it,
 * writing the profile to <file> and this process's CPU time over the window (user, system µs) to
 * <file>.cpu.json, then printing `{"profiled":true}`: a profile of the load alone, without start-up.
 */
function profileOnSignal(): void {
  const file = process.env.AWAKEN_BENCH_PROFILE;
  if (!file) return;
  const session = new Session();
  session.connect();
  let started: NodeJS.CpuUsage | undefined;
  process.on('SIGUSR2', () => {
    void (async () => {
      if (!started) {
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 200 });
        await session.post('Profiler.start');
        started = process.cpuUsage();
        process.stdout.write(`${JSON.stringify({ profiling: true })}\n`);
        return;
      }
      const cpu = process.cpuUsage(started);
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      writeFileSync(`${file}.cpu.json`, JSON.stringify(cpu));
      started = undefined;
      process.stdout.write(`${JSON.stringify({ profiled: true })}\n`);
    })();
  });
}
profileOnSignal();

function bare(): void {
  const app = new Hono();
  const tools = {
    get_weather: tool({
      description: 'The weather in a city',
      inputSchema: z.object({ city: z.string() }),
      execute: async () => WEATHER,
    }),
  };
  app.post('/api/chat', async (c) => {
    const { messages } = (await c.req.json()) as { messages: UIMessage[] };
    const result = streamText({
      model: weatherModel,
      messages: await convertToModelMessages(messages),
      tools,
      stopWhen: stepCountIs(5),
      maxRetries: 0,
    });
    return result.toUIMessageStreamResponse();
  });
  serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => ready(info.port));
}

type Kind = 'memory' | 'redis' | 'redis-cluster' | 'postgres';

function storesOf(kind: Kind, url: string | undefined) {
  if (kind === 'redis-cluster' && url) {
    const redis = createRedisStores({
      redis: createRedisClusterClient(url),
      prefix: `bench-chat:${randomUUID()}:`,
    });
    return { stores: redisServiceStores(redis) as ServiceStores, close: () => redis.close() };
  }
  if (kind === 'redis' && url) {
    const redis = createRedisStores({ redis: url, prefix: `bench-chat:${randomUUID()}:` });
    return { stores: redisServiceStores(redis) as ServiceStores, close: () => redis.close() };
  }
  if (kind === 'postgres' && url) {
    const pg = createPostgresStores({
      postgres: { connectionString: url, max: 20 },
      schema: `bench_chat_${randomUUID().replaceAll('-', '').slice(0, 12)}`,
    });
    const { threadRuns, mailbox, eventLog, inbox } = pg;
    return { stores: { threadRuns, mailbox, eventLog, inbox } as ServiceStores, close: () => pg.close(), pg };
  }
  return { stores: memoryServiceStores(), close: async () => undefined };
}

async function awaken(kind: Kind, url: string | undefined): Promise<void> {
  const backend = storesOf(kind, url);
  await backend.pg?.migrate();
  const service = createMailboxService({
    agents: [
      {
        id: 'weather',
        model: createAiSdkModelExecutor(weatherModel),
        tools: [
          defineTool({
            name: 'get_weather',
            description: 'The weather in a city',
            parameters: z.object({ city: z.string() }),
            execute: () => WEATHER,
          }),
        ],
      },
    ],
    stores: backend.stores,
    concurrency: 64,
  });
  await service.start();
  const http = createHttpApp({ tenants: { default: service }, keepAliveMs: 15_000 });
  const server = serve({ fetch: http.fetch, port: 0, hostname: '127.0.0.1' }, (info) => ready(info.port));
  const stop = () => {
    server.close();
    void service
      .stop({ graceMs: 0 })
      .then(() => backend.close())
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

const mode = process.argv[2];
if (mode === 'bare') bare();
else if (mode === 'awaken-memory') await awaken('memory', undefined);
else if (mode === 'awaken-redis') await awaken('redis', process.argv[3]);
else if (mode === 'awaken-redis-cluster') await awaken('redis-cluster', process.argv[3]);
else if (mode === 'awaken-postgres') await awaken('postgres', process.argv[3]);
else throw new Error(`unknown mode ${mode}`);
