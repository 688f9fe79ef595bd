import { describeThreadRunStoreConformance } from '@awaken/store-conformance';
import { afterAll, inject } from 'vitest';
import { PostgresThreadRunStore } from './postgres-thread-run-store';
import { adminPool, pgHarnessParts } from '../test-support/pg-harness';

const url = inject('postgresUrl');
const admin = adminPool(url);
const parts = pgHarnessParts(url, admin, (options) => new PostgresThreadRunStore(options));
afterAll(async () => {
  await parts.dropAll();
  await admin.end();
});

describeThreadRunStoreConformance({ name: 'postgres', ...parts });
