/**
 * One server process of the approve-burst benchmark: the HTTP API over a mailbox service on a shared
 * Redis prefix or PostgreSQL schema (argv[2] JSON `{ backend, url, prefix, concurrency }`; for
 * PostgreSQL `prefix` names the schema), on a free loopback port; prints `{"port":N}` when ready and
 * stops on SIGTERM (so `--cpu-prof` writes its profile).
 */
import { type ServiceStores, createHttpApp, createMailboxService } from '@awaken/server';
import { createPostgresStores } from '@awaken/store-postgres';
import { createRedisStores } from '@awaken/store-redis';
import { serve } from '@hono/node-server';
import { benchAgent } from '../server-service/agent';
import { redisServiceStores } from '../server-service/stores';

export interface BurstServerJob {
  backend: 'redis' | 'postgres';
  url: string;
  prefix: string;
  concurrency: number;
}

function openStores(job: BurstServerJob): { stores: ServiceStores; close(): Promise<void> } {
  if (job.backend === 'postgres') {
    const pg = createPostgresStores({ postgres: job.url, schema: job.prefix });
    return { stores: pg, close: () => pg.close() };
  }
  const redis = createRedisStores({ redis: job.url, prefix: job.prefix });
  return { stores: redisServiceStores(redis), close: () => redis.close() };
}

async function main(job: BurstServerJob): Promise<void> {
  const { stores, close } = openStores(job);
  const service = createMailboxService({ agents: [benchAgent()], stores, concurrency: job.concurrency });
  await service.start();
  const http = createHttpApp({ tenants: { default: service }, keepAliveMs: 15_000 });
  const server = serve({ fetch: http.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
    process.stdout.write(`${JSON.stringify({ port: info.port })}\n`),
  );
  process.on('SIGTERM', () => {
    server.close();
    void service
      .stop({ graceMs: 0 })
      .then(close)
      .finally(() => process.exit(0));
  });
}

main(JSON.parse(process.argv[2] ?? '{}') as BurstServerJob).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
