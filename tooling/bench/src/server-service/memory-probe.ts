/**
 * Child process of the server-service benchmark (run with --expose-gc): measures process heap with a
 * mailbox service over Redis, first after 500 warm-up runs that finished, then with `count` waiting runs
 * (each suspended on an approval, its dispatch acked). argv[2] is JSON `{ url, count, hotCacheSize }`; prints one JSON line.
 */
import { randomUUID } from 'node:crypto';
import type { MailboxStore } from '@awaken/contract';
import { createMailboxService } from '@awaken/server';
import { createRedisStores } from '@awaken/store-redis';
import { AGENT_ID, benchAgent } from './agent';
import { redisServiceStores } from './stores';

const WARMUP = 500;

async function settledHeap(): Promise<{ heap: number; rss: number }> {
  for (let round = 0; round < 4; round += 1) {
    global.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, rss: usage.rss };
}

async function main(input: { url: string; count: number; hotCacheSize: number }): Promise<void> {
  if (!global.gc) throw new Error('run with --expose-gc');
  const redis = createRedisStores({ redis: input.url, prefix: `bench-mem:${randomUUID()}:` });
  const stores = redisServiceStores(redis);
  let acked = 0;
  const mailbox = new Proxy(stores.mailbox, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'ack') return typeof value === 'function' ? value.bind(target) : value;
      return async (proof: Parameters<MailboxStore['ack']>[0]) => {
        const result = await target.ack(proof);
        acked += 1;
        return result;
      };
    },
  });
  const service = createMailboxService({
    agents: [benchAgent()],
    stores: { ...stores, mailbox },
    concurrency: 16,
    hotCacheSize: input.hotCacheSize,
  });
  await service.start();
  // warm-up runs that finish, so optimised code, connections and caches exist in the baseline too
  await Promise.all(
    Array.from({ length: WARMUP }, () =>
      service.submit({ agentId: AGENT_ID, input: 'plain', mode: 'background' }),
    ),
  );
  while (acked < WARMUP) await new Promise((resolve) => setTimeout(resolve, 5));
  const baseline = await settledHeap();
  for (let start = 0; start < input.count; start += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, input.count - start) }, () =>
        service.submit({ agentId: AGENT_ID, input: 'approve', mode: 'background' }),
      ),
    );
  }
  while (acked < input.count + WARMUP) await new Promise((resolve) => setTimeout(resolve, 20));
  const waiting = await settledHeap();
  const stats = service.stats();
  await service.stop();
  let cursor = '0';
  do {
    const [next, keys] = await redis.redis.scan(cursor, 'MATCH', `${redis.prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.redis.unlink(...keys);
  } while (cursor !== '0');
  await redis.close();
  console.log(JSON.stringify({ baseline, waiting, hotRuns: stats.hotRuns }));
}

main(JSON.parse(process.argv[2] ?? '{}')).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
