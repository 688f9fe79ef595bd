import { createHash } from 'node:crypto';
import type { NotificationStores, ServiceStores } from '@awaken/server';
import { createMemoryStores } from '@awaken/store-memory';
import { createPostgresStores } from '@awaken/store-postgres';
import {
  type RedisStoresOptions,
  createRedisClient,
  createRedisClusterClient,
  createRedisStores,
} from '@awaken/store-redis';
import type { Redis } from 'ioredis';
import pg from 'pg';
import type { Logger } from 'pino';

/** The stores of every tenant, and how to close them. */
export interface TenantStores {
  /** memory; redis; postgres (every store); postgres+redis (the mailbox on Redis, the rest on Postgres). */
  kind: 'memory' | 'redis' | 'postgres' | 'postgres+redis';
  byTenant: Record<string, ServiceStores>;
  /**
   * The webhook deliveries of each tenant named in `notifyTenants`, on the same backend apart from
   * its runs (Redis prefix `<prefix>:n:<tenant>`, Postgres schema `<schema>n_<tenant>`): run workers
   * never see them. Other tenants have none (and no schema is created for them).
   */
  notifyByTenant: Record<string, NotificationStores>;
  /** Applies the Postgres migrations of every tenant's schema (nothing to do otherwise). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const bundle = (stores: ServiceStores): ServiceStores => ({
  threadRuns: stores.threadRuns,
  mailbox: stores.mailbox,
  eventLog: stores.eventLog,
  inbox: stores.inbox,
});

const notifyStores = (stores: ServiceStores): NotificationStores => ({
  threadRuns: stores.threadRuns,
  mailbox: stores.mailbox,
});

/**
 * The Postgres schema of a tenant: `<schema>_<tenant>` with `_` written `__` and `-` written `_d`
 * (so no two tenants share one), or a hash of the tenant when that would pass PostgreSQL's 63 bytes.
 */
export function tenantSchema(schema: string, tenant: string): string {
  const encoded = `${schema}_${tenant.replaceAll('_', '__').replaceAll('-', '_d')}`;
  return encoded.length <= 63
    ? encoded
    : `${schema}_h${createHash('sha256').update(tenant).digest('hex').slice(0, 32)}`;
}

function connectRedis(url: string, logger: Logger | undefined): Redis {
  // a short outage (a restart) waits instead of failing every run in flight; a long one surfaces on
  // each request (503) and at once in /health, whose probes time out; connection failures are logged
  // as one JSON line per state change (to the app's logger), never thrown at the process
  const log = logger
    ? (line: string) => logger.warn({ redis: JSON.parse(line) }, 'redis connection')
    : undefined;
  return createRedisClient(url, { redis: { lazyConnect: false }, ...(log ? { log } : {}) });
}

/** A Redis Cluster client from `host:port,…`, with the same outage handling and logging. */
function connectRedisCluster(nodes: string, logger: Logger | undefined): Redis {
  const log = logger
    ? (line: string) => logger.warn({ redis: JSON.parse(line) }, 'redis cluster connection')
    : undefined;
  return createRedisClusterClient(nodes, log ? { log } : {});
}

/** The Redis connection the options ask for: a cluster, one Redis, or none. */
function connectTo(
  options: { redisUrl?: string; redisClusterNodes?: string },
  logger: Logger | undefined,
): Redis | undefined {
  if (options.redisClusterNodes) return connectRedisCluster(options.redisClusterNodes, logger);
  return options.redisUrl ? connectRedis(options.redisUrl, logger) : undefined;
}

/**
 * One store bundle per tenant: separate memory stores; one Redis connection with a key prefix per
 * tenant (`<prefix>:t:<tenant>:`); or one Postgres pool with a schema per tenant (see
 * {@link tenantSchema}) — with `redisUrl` too, the mailbox (queue and wake-ups) goes to Redis and
 * threads, runs, event logs and inboxes stay in Postgres. No key, row or stream is shared between tenants.
 * `redisClusterNodes` (`host:port,…`) instead of `redisUrl`: the same on a Redis Cluster, each
 * tenant's mailbox sharded over the masters.
 */
export function createTenantStores(options: {
  tenants: readonly string[];
  redisUrl?: string;
  redisClusterNodes?: string;
  databaseUrl?: string;
  prefix: string;
  /** The base Postgres schema name (default `awaken`). */
  schema?: string;
  /** Where the Redis connection's errors go (the store's own connections' too), as JSON lines. */
  logger?: Logger;
  /** Tenants with webhook endpoints: they get delivery stores (`notifyByTenant`). Default none. */
  notifyTenants?: readonly string[];
  /** Every Redis store's `waitForReplicas` (REDIS_WAIT_FOR_REPLICAS): a write waits for replicas. */
  waitForReplicas?: RedisStoresOptions['waitForReplicas'];
}): TenantStores {
  if (options.databaseUrl) return postgresTenantStores({ ...options, databaseUrl: options.databaseUrl });
  const redis = connectTo(options, options.logger);
  if (!redis) {
    const byTenant = Object.fromEntries(
      options.tenants.map((tenant) => [tenant, bundle(createMemoryStores())]),
    );
    const notifyByTenant = Object.fromEntries(
      (options.notifyTenants ?? []).map((tenant) => [tenant, notifyStores(createMemoryStores())]),
    );
    return { kind: 'memory', byTenant, notifyByTenant, ready: async () => {}, close: async () => {} };
  }
  const notifies = new Set(options.notifyTenants ?? []);
  const wait = options.waitForReplicas ? { waitForReplicas: options.waitForReplicas } : {};
  const bundles = options.tenants.map((tenant) => ({
    tenant,
    stores: createRedisStores({ redis, prefix: `${options.prefix}:t:${tenant}`, ...wait }),
    notify: notifies.has(tenant)
      ? createRedisStores({ redis, prefix: `${options.prefix}:n:${tenant}`, ...wait })
      : undefined,
  }));
  return {
    kind: 'redis',
    byTenant: Object.fromEntries(bundles.map(({ tenant, stores }) => [tenant, bundle(stores)])),
    notifyByTenant: Object.fromEntries(
      bundles.flatMap(({ tenant, notify }) => (notify ? [[tenant, notifyStores(notify)]] : [])),
    ),
    ready: async () => {},
    async close() {
      await Promise.all(bundles.flatMap(({ stores, notify }) => [stores.close(), notify?.close()]));
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

function postgresTenantStores(options: {
  tenants: readonly string[];
  notifyTenants?: readonly string[];
  redisUrl?: string;
  redisClusterNodes?: string;
  databaseUrl: string;
  prefix: string;
  schema?: string;
  logger?: Logger;
  waitForReplicas?: RedisStoresOptions['waitForReplicas'];
}): TenantStores {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 20 });
  pool.on('error', (error) => options.logger?.warn({ err: error }, 'postgres connection'));
  const redis = connectTo(options, options.logger);
  const bundles = options.tenants.map((tenant) => {
    const postgres = createPostgresStores({
      postgres: pool,
      schema: tenantSchema(options.schema ?? 'awaken', tenant),
    });
    const mailbox = redis
      ? createRedisStores({
          redis,
          prefix: `${options.prefix}:t:${tenant}`,
          ...(options.waitForReplicas ? { waitForReplicas: options.waitForReplicas } : {}),
        }).mailbox
      : postgres.mailbox;
    const notify = options.notifyTenants?.includes(tenant)
      ? createPostgresStores({
          postgres: pool,
          schema: tenantSchema(`${options.schema ?? 'awaken'}n`, tenant),
        })
      : undefined;
    return { tenant, postgres, mailbox, notify };
  });
  return {
    kind: redis ? 'postgres+redis' : 'postgres',
    byTenant: Object.fromEntries(
      bundles.map(({ tenant, postgres, mailbox }) => [tenant, { ...bundle(postgres), mailbox }]),
    ),
    notifyByTenant: Object.fromEntries(
      bundles.flatMap(({ tenant, notify }) => (notify ? [[tenant, notifyStores(notify)]] : [])),
    ),
    async ready() {
      for (const { postgres, notify } of bundles) {
        await postgres.migrate();
        await notify?.migrate();
      }
    },
    async close() {
      for (const { postgres, mailbox, notify } of bundles) {
        await notify?.close();
        if (mailbox !== postgres.mailbox && 'close' in mailbox)
          await (mailbox as { close(): Promise<void> }).close();
        await postgres.close();
      }
      await pool.end();
      await redis?.quit().catch(() => redis.disconnect());
    },
  };
}
