import { describeMailboxStoreConformance } from '@awaken/store-conformance';
import { afterAll, inject } from 'vitest';
import { PostgresMailboxStore } from './postgres-mailbox-store';
import { adminPool, pgHarnessParts } from '../test-support/pg-harness';

// The test clock freezes the store clock in the schema's test_clock table, so lease boundaries are
// tested to the millisecond; the multi-process tests run on the real database clock.
const url = inject('postgresUrl');
const admin = adminPool(url);

const parts = pgHarnessParts(url, admin, (options) => new PostgresMailboxStore(options));
afterAll(async () => {
  await parts.dropAll();
  await admin.end();
});

describeMailboxStoreConformance({ name: 'postgres', ...parts });
