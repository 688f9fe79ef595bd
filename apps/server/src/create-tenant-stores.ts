import type { ServiceStores } from '@awaken/server';
import { createMemoryStores } from '@awaken/store-memory';
import { createRedisClient, createRedisStores } from '@awaken/store-redis';
import type { Logger } from 'pino';

/** The stores of every tenant, and how to close them. */
export interface TenantStores {
  kind: 'memory' | 'redis';
  byTenant: Record<string, ServiceStores>;
  close(): Promise<void>;
}

/**
 * One store bundle per tenant: separate memory stores, or one Redis connection with a key prefix per
 * tenant (`<prefix>:t:<tenant>:`), so no key or event stream is shared between tenants.
 */
export function createTenantStores(options: {
  tenants: readonly string[];
  redisUrl?: string;
  prefix: string;
  /** Where the Redis connection's errors go (the store's own connections' too), as JSON lines. */
  logger?: Logger;
}): TenantStores {
  if (!options.redisUrl) {
    const byTenant = Object.fromEntries(
      options.tenants.map((tenant) => {
        const stores = createMemoryStores();
        return [
          tenant,
          {
            threadRuns: stores.threadRuns,
            mailbox: stores.mailbox,
            eventLog: stores.eventLog,
            inbox: stores.inbox,
          },
        ];
      }),
    );
    return { kind: 'memory', byTenant, close: async () => {} };
  }
  // a short outage (a restart) waits instead of failing every run in flight; a long one surfaces on
  // each request (503) and at once in /health, whose probes time out; connection failures are logged
  // as one JSON line per state change (to the app's logger), never thrown at the process
  const logger = options.logger;
  const log = logger
    ? (line: string) => logger.warn({ redis: JSON.parse(line) }, 'redis connection')
    : undefined;
  const redis = createRedisClient(options.redisUrl, {
    redis: { lazyConnect: false },
    ...(log ? { log } : {}),
  });
  const bundles = options.tenants.map((tenant) => ({
    tenant,
    stores: createRedisStores({ redis, prefix: `${options.prefix}:t:${tenant}` }),
  }));
  return {
    kind: 'redis',
    byTenant: Object.fromEntries(
      bundles.map(({ tenant, stores }) => [
        tenant,
        {
          threadRuns: stores.threadRuns,
          mailbox: stores.mailbox,
          eventLog: stores.eventLog,
          inbox: stores.inbox,
        },
      ]),
    ),
    async close() {
      await Promise.all(bundles.map(({ stores }) => stores.close()));
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
