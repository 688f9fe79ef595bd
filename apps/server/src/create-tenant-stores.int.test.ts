import { randomUUID } from 'node:crypto';
import { PostgresThreadRunStore } from '@awaken/store-postgres';
import { RedisMailboxStore } from '@awaken/store-redis';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createTenantStores, tenantSchema } from './create-tenant-stores';

describe('createTenantStores', () => {
  it('gives every tenant a schema of its own, however its name is spelled', () => {
    const tenants = ['a-b', 'a_b', 'a__b', 'a_db', 'x'.repeat(64), `${'x'.repeat(63)}y`];
    const schemas = tenants.map((tenant) => tenantSchema('awaken', tenant));
    expect(new Set(schemas).size).toBe(tenants.length);
    for (const schema of schemas) expect(schema).toMatch(/^[a-z_][a-z0-9_]{0,62}$/);
  });

  it('with DATABASE_URL and REDIS_URL: the mailbox on Redis, threads, runs, logs and inboxes on Postgres', async () => {
    const schema = `mix_${randomUUID().replaceAll('-', '').slice(0, 10)}`;
    const stores = createTenantStores({
      tenants: ['acme'],
      databaseUrl: inject('postgresUrl'),
      redisUrl: inject('redisUrl'),
      prefix: `mix-${randomUUID().slice(0, 8)}`,
      schema,
    });
    try {
      await stores.ready();
      expect(stores.kind).toBe('postgres+redis');
      const acme = stores.byTenant.acme;
      expect(acme?.mailbox).toBeInstanceOf(RedisMailboxStore);
      expect(acme?.threadRuns).toBeInstanceOf(PostgresThreadRunStore);
      const thread = await acme?.threadRuns.createThread({});
      await acme?.mailbox.enqueue({ threadId: thread?.id ?? '', runId: 'r1' });
      expect(await acme?.mailbox.claim({ workerId: 'w', limit: 1, leaseMs: 1_000 })).toHaveLength(1);
    } finally {
      await stores.close();
      const admin = new pg.Client({ connectionString: inject('postgresUrl') });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${tenantSchema(schema, 'acme')}" CASCADE`);
      await admin.end();
    }
  });
});
