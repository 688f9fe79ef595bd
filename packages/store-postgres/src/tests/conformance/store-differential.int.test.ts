import { createManualClock, describeStoreDifferential } from '@awaken/store-conformance';
import { createMemoryStores } from '@awaken/store-memory';
import { afterAll, beforeAll, inject } from 'vitest';
import { createPostgresStores } from '../../create-postgres-stores';
import {
  adminPool,
  dropSchema,
  freezeClock,
  emptySchema,
  uniqueSchema,
} from '../../../test-support/pg-harness';

// Memory is the reference, Postgres the subject (random operation sequences, several threads, the
// concurrent variant included). One schema, emptied between sequences (no DDL per sequence).
// AWAKEN_DIFFERENTIAL_MS sets the budget (10 s here to keep CI short), AWAKEN_DIFFERENTIAL_SEED replays.
const url = inject('postgresUrl');
const admin = adminPool(url);
const schema = uniqueSchema('diff');
const stores = createPostgresStores({ postgres: url, schema, testClock: true });
beforeAll(() => stores.migrate());
afterAll(async () => {
  await stores.close();
  await dropSchema(admin, schema);
  await admin.end();
});

describeStoreDifferential({
  name: 'memory vs postgres',
  budgetMs: Number(process.env.AWAKEN_DIFFERENTIAL_MS ?? 10_000),
  ...(process.env.AWAKEN_DIFFERENTIAL_SEED ? { seed: Number(process.env.AWAKEN_DIFFERENTIAL_SEED) } : {}),
  async createPair(start) {
    const clock = createManualClock(start);
    const memory = createMemoryStores({ now: clock.now, jointCheckpoints: true });
    await emptySchema(admin, schema);
    await freezeClock(admin, schema, start);
    return {
      reference: {
        mailbox: memory.mailbox,
        threadRuns: memory.threadRuns,
        eventLog: memory.eventLog,
        inbox: memory.inbox,
      },
      subject: {
        mailbox: stores.mailbox,
        threadRuns: stores.threadRuns,
        eventLog: stores.eventLog,
        inbox: stores.inbox,
      },
      async setClock(ms) {
        clock.advance(ms - clock.now());
        await freezeClock(admin, schema, ms);
      },
      async destroy() {},
    };
  },
});
