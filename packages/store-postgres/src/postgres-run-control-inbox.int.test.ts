import { describeRunControlInboxConformance } from '@awaken/store-conformance';
import { afterAll, inject } from 'vitest';
import { PostgresRunControlInbox } from './postgres-run-control-inbox';
import { adminPool, pgHarnessParts } from '../test-support/pg-harness';

const url = inject('postgresUrl');
const admin = adminPool(url);
afterAll(() => admin.end());

describeRunControlInboxConformance({
  name: 'postgres',
  ...pgHarnessParts(url, admin, (options) => new PostgresRunControlInbox(options)),
});
