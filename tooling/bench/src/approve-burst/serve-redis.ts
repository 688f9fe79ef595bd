/**
 * One server process of the approve-burst benchmark: the HTTP API over a mailbox service on a shared
 * Redis prefix (argv[2] JSON `{ url, prefix, concurrency }`), on a free loopback port; prints
 * `{"port":N}` when ready and stops on SIGTERM (so `--cpu-prof` writes its profile).
 */
import { createHttpApp, createMailboxService } from '@awaken/server';
import { createRedisStores } from '@awaken/store-redis';
import { serve } from '@hono/node-server';
import { benchAgent } from '../server-service/agent';
import { redisServiceStores } from '../server-service/stores';

interface Job {
  url: string;
  prefix: string;
  concurrency: number;
}

async function main(job: Job): Promise<void> {
  const redis = createRedisStores({ redis: job.url, prefix: job.prefix });
  const service = createMailboxService({
    agents: [benchAgent()],
    stores: redisServiceStores(redis),
    concurrency: job.concurrency,
  });
  await service.start();
  const http = createHttpApp({ tenants: { default: service }, keepAliveMs: 15_000 });
  const server = serve({ fetch: http.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
    process.stdout.write(`${JSON.stringify({ port: info.port })}\n`),
  );
  process.on('SIGTERM', () => {
    server.close();
    void service
      .stop({ graceMs: 0 })
      .then(() => redis.close())
      .finally(() => process.exit(0));
  });
}

main(JSON.parse(process.argv[2] ?? '{}') as Job).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
