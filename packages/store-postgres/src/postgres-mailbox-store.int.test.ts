import { describeMailboxStoreConformance } from '@awaken/store-conformance';
import { afterAll, inject } from 'vitest';
import { PostgresMailboxStore } from './postgres-mailbox-store';
import { adminPool, advanceClock, freezeClock, pgHarnessParts } from '../test-support/pg-harness';

// The test clock freezes the store clock in the schema's test_clock table, so lease boundaries are
// tested to the millisecond; the multi-process tests run on the real database clock.
const url = inject('postgresUrl');
const admin = adminPool(url);

const parts = pgHarnessParts(
  url,
  admin,
  (options) => new PostgresMailboxStore({ ...options, testClock: true }),
);

describeMailboxStoreConformance({
  name: 'postgres',
  ...parts,
  async create() {
    const store = await parts.create();
    await freezeClock(admin, store.db.schema);
    return store;
  },
  clock: { advance: (store, ms) => advanceClock(admin, (store as PostgresMailboxStore).db.schema, ms) },
});
