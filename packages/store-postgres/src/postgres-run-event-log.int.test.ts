import { describeRunEventLogConformance } from '@awaken/store-conformance';
import { afterAll, inject } from 'vitest';
import { PostgresRunEventLog } from './postgres-run-event-log';
import { adminPool, pgHarnessParts } from '../test-support/pg-harness';

const url = inject('postgresUrl');
const admin = adminPool(url);
afterAll(() => admin.end());

describeRunEventLogConformance({
  name: 'postgres',
  ...pgHarnessParts(url, admin, (options) => new PostgresRunEventLog(options)),
});
