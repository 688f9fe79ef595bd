import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { startPostgresServer, startRedisServer } from '@awaken/testing';
import { createPostgresStores } from '@awaken/store-postgres';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { BurstServerJob } from './serve';

/** A store backend of the approve-burst benchmark: its server, the job its processes get, its counters. */
export interface BurstBackend {
  name: 'redis' | 'postgres';
  version: string;
  job(concurrency: number): BurstServerJob;
  /** Zeroes the counters `cost` reads. */
  resetStats(): Promise<void>;
  /** Store work since `resetStats`, per run: a short text. */
  cost(runs: number): Promise<string>;
  /** Dispatches the burst made. */
  dispatches(): Promise<number>;
  stop(): Promise<void>;
}

export async function startRedisBackend(): Promise<BurstBackend> {
  const server = await startRedisServer();
  const redis = new Redis(server.url);
  const prefix = `bench-burst:${randomUUID()}:`;
  const version = execFileSync('redis-server', ['--version'], { encoding: 'utf8' })
    .trim()
    .split(' ')
    .slice(0, 3)
    .join(' ');
  return {
    name: 'redis',
    version,
    job: (concurrency) => ({ backend: 'redis', url: server.url, prefix, concurrency }),
    resetStats: async () => {
      await redis.config('RESETSTAT');
    },
    async cost(runs) {
      const stats = await redis.info('commandstats');
      const calls = [...stats.matchAll(/cmdstat_([^:]+):calls=(\d+)/g)].map(
        (match) => [match[1] as string, Number(match[2])] as const,
      );
      const total = calls.reduce((sum, [, value]) => sum + value, 0);
      const top = calls
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([name, value]) => `${name} ${(value / runs).toFixed(1)}`)
        .join(', ');
      return `Redis commands ${(total / runs).toFixed(0)} per run, polling included (${top})`;
    },
    async dispatches() {
      let cursor = '0';
      let count = 0;
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*d:*`, 'COUNT', 1000);
        cursor = next;
        count += keys.filter((key) => /(^|:)d:[^:]+$/.test(key.slice(prefix.length))).length;
      } while (cursor !== '0');
      return count;
    },
    async stop() {
      await redis.quit();
      await server.stop();
    },
  };
}

export async function startPostgresBackend(): Promise<BurstBackend> {
  const server = await startPostgresServer();
  const schema = `bench_burst_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  // migrate once here, so the two server processes do not race to create the schema
  const stores = createPostgresStores({ postgres: server.url, schema });
  await stores.migrate();
  await stores.close();
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  const version = String((await client.query('SHOW server_version')).rows[0].server_version);
  const commits = async () =>
    Number(
      (await client.query('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()'))
        .rows[0].xact_commit,
    );
  let before = 0;
  return {
    name: 'postgres',
    version: `PostgreSQL ${version}`,
    job: (concurrency) => ({ backend: 'postgres', url: server.url, prefix: schema, concurrency }),
    resetStats: async () => {
      await client.query('SELECT pg_stat_clear_snapshot()');
      before = await commits();
    },
    async cost(runs) {
      await client.query('SELECT pg_stat_clear_snapshot()');
      const committed = (await commits()) - before;
      return `PostgreSQL transactions ${(committed / runs).toFixed(0)} per run, polling and idle workers included`;
    },
    async dispatches() {
      return Number((await client.query(`SELECT count(*) AS n FROM ${schema}.dispatches`)).rows[0].n);
    },
    async stop() {
      await client.end();
      await server.stop();
    },
  };
}
