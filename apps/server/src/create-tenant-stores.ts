import type { ServiceStores } from '@awaken/server';
import { createMemoryStores } from '@awaken/store-memory';
import { createRedisStores } from '@awaken/store-redis';
import { Redis } from 'ioredis';
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
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false });
  // failures surface on each request (503) and in /health; the client (and the connections the stores
  // duplicate from it) must not crash the process or print stacks: one JSON line per new failure
  let last = '';
  redis.on('error', (error: Error) => {
    if (error.message === last) return;
    last = error.message;
    options.logger?.warn(
      { err: { message: error.message, code: (error as { code?: string }).code } },
      'redis error',
    );
  });
  redis.on('ready', () => {
    last = '';
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
