import {
  type JointStores,
  type LeaseAndLogStores,
  type RunScopedStores,
  describeAcquireWithFenceConformance,
  describeCheckpointWithEventsConformance,
  describeRunExpiryConformance,
} from '@awaken/store-conformance';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type PostgresStores, createPostgresStores } from './create-postgres-stores';
import { MIGRATIONS } from './migrations';
import { adminPool, dropSchema, uniqueSchema } from '../test-support/pg-harness';

const url = inject('postgresUrl');
const admin = adminPool(url);
afterAll(() => admin.end());
const owners = new WeakMap<RunScopedStores, PostgresStores>();

describeRunExpiryConformance({
  name: 'postgres (createPostgresStores)',
  async create() {
    const stores = createPostgresStores({ postgres: url, schema: uniqueSchema('expiry') });
    await stores.migrate();
    const scoped = { eventLog: stores.eventLog, inbox: stores.inbox };
    owners.set(scoped, stores);
    return scoped;
  },
  async destroy(scoped) {
    const stores = owners.get(scoped);
    if (stores === undefined) return;
    await stores.close();
    await dropSchema(admin, stores.schema);
  },
});

const jointOwners = new WeakMap<JointStores, PostgresStores>();

describeCheckpointWithEventsConformance({
  name: 'postgres (createPostgresStores)',
  async create() {
    const stores = createPostgresStores({ postgres: url, schema: uniqueSchema('joint') });
    await stores.migrate();
    const joint = { threadRuns: stores.threadRuns, eventLog: stores.eventLog };
    jointOwners.set(joint, stores);
    return joint;
  },
  async destroy(joint) {
    const stores = jointOwners.get(joint);
    if (stores === undefined) return;
    await stores.close();
    await dropSchema(admin, stores.schema);
  },
});

const leaseOwners = new WeakMap<LeaseAndLogStores, PostgresStores>();

describeAcquireWithFenceConformance({
  name: 'postgres (createPostgresStores)',
  async create() {
    const stores = createPostgresStores({ postgres: url, schema: uniqueSchema('acquire') });
    await stores.migrate();
    const pair = { threadRuns: stores.threadRuns, eventLog: stores.eventLog };
    leaseOwners.set(pair, stores);
    return pair;
  },
  async destroy(pair) {
    const stores = leaseOwners.get(pair);
    if (stores === undefined) return;
    await stores.close();
    await dropSchema(admin, stores.schema);
  },
});

describe('createPostgresStores', () => {
  it('migrates a schema once when several processes start at the same moment', async () => {
    const schema = uniqueSchema('migrate');
    const bundles = Array.from({ length: 4 }, () => createPostgresStores({ postgres: url, schema }));
    try {
      await Promise.all(bundles.map((stores) => stores.migrate()));
      const { rows } = await admin.query(
        `SELECT version FROM "${schema}".schema_migrations ORDER BY version`,
      );
      // every shipped migration once, in order
      expect(rows.map((row) => row.version)).toEqual(MIGRATIONS.map((migration) => migration.version));
      await bundles[0]?.threadRuns.createThread({ id: 't1' });
      expect(await bundles[3]?.threadRuns.getThread('t1')).toMatchObject({ id: 't1' });
    } finally {
      for (const stores of bundles) await stores.close();
      await dropSchema(admin, schema);
    }
  });

  it('keeps deployments in different schemas of one database apart', async () => {
    const [a, b] = [uniqueSchema('a'), uniqueSchema('b')].map((schema) =>
      createPostgresStores({ postgres: url, schema }),
    ) as [PostgresStores, PostgresStores];
    try {
      await a.mailbox.enqueue({ threadId: 't', runId: 'r' });
      expect(await b.mailbox.claim({ workerId: 'w', limit: 10, leaseMs: 1_000 })).toEqual([]);
      expect(await a.mailbox.claim({ workerId: 'w', limit: 10, leaseMs: 1_000 })).toHaveLength(1);
    } finally {
      for (const stores of [a, b]) {
        await stores.close();
        await dropSchema(admin, stores.schema);
      }
    }
  });

  it('ends a pending waitForWork and a pending tail on close()', async () => {
    const stores = createPostgresStores({ postgres: url, schema: uniqueSchema('close') });
    await stores.migrate();
    const waiting = stores.mailbox.waitForWork({ timeoutMs: 60_000 });
    const tailing = stores.eventLog.tail('r1', { afterSeq: 0, waitMs: 60_000 });
    const started = Date.now();
    await stores.close();
    expect(await waiting).toBe(false);
    expect(await tailing).toEqual([]);
    expect(Date.now() - started).toBeLessThan(10_000);
    await dropSchema(admin, stores.schema);
  });

  it('rejects a schema name that is not a plain lower-case identifier', () => {
    expect(() => createPostgresStores({ postgres: url, schema: 'Bad"; DROP' })).toThrow(/schema/);
  });
});
