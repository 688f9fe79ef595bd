import { describeRunControlInboxConformance } from '@awaken/store-conformance';
import { afterAll, inject } from 'vitest';
import { PostgresRunControlInbox } from './postgres-run-control-inbox';
import { adminPool, pgHarnessParts } from '../test-support/pg-harness';

const url = inject('postgresUrl');
const admin = adminPool(url);
const parts = pgHarnessParts(url, admin, (options) => new PostgresRunControlInbox(options));
afterAll(async () => {
  await parts.dropAll();
  await admin.end();
});

describeRunControlInboxConformance({ name: 'postgres', ...parts });
