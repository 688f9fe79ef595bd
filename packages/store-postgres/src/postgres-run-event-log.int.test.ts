import { describeRunEventLogConformance } from '@awaken/store-conformance';
import { afterAll, inject } from 'vitest';
import { PostgresRunEventLog } from './postgres-run-event-log';
import { adminPool, pgHarnessParts } from '../test-support/pg-harness';

const url = inject('postgresUrl');
const admin = adminPool(url);
const parts = pgHarnessParts(url, admin, (options) => new PostgresRunEventLog(options));
afterAll(async () => {
  await parts.dropAll();
  await admin.end();
});

describeRunEventLogConformance({ name: 'postgres', ...parts });
