import { createManualClock, describeStoreDifferential } from '@awaken/store-conformance';
import { createMemoryStores } from '@awaken/store-memory';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, inject } from 'vitest';
import { createRedisStores } from '../../create-redis-stores';
import { MAILBOX_LUA } from '../../internal/lua/mailbox/mailbox-lua-sources';
import { deleteKeys, uniquePrefix } from '../../../test-support/redis-harness';

// Memory is the reference, Redis the subject. `pnpm --filter @awaken/store-conformance soak` runs
// this file for ten minutes (AWAKEN_DIFFERENTIAL_MS); AWAKEN_DIFFERENTIAL_SEED replays a failure.
const url = new URL(inject('redisUrl'));
url.pathname = '/5'; // a database of its own: only this test's keys to scan and delete
const client = new Redis(url.toString());
// Mailbox scripts loaded up front: a call whose EVALSHA misses (NOSCRIPT, then EVAL) is overtaken
// by a call sent after it, which the concurrent steps would see (see the README on script loading).
beforeAll(async () => {
  for (const { source } of Object.values(MAILBOX_LUA)) await client.script('LOAD', source);
});
afterAll(async () => {
  await client.quit();
});

describeStoreDifferential({
  name: 'memory vs redis',
  budgetMs: Number(process.env.AWAKEN_DIFFERENTIAL_MS ?? 60_000),
  ...(process.env.AWAKEN_DIFFERENTIAL_SEED ? { seed: Number(process.env.AWAKEN_DIFFERENTIAL_SEED) } : {}),
  async createPair(start) {
    const clock = createManualClock(start);
    const memory = createMemoryStores({ now: clock.now, jointCheckpoints: true });
    const redis = createRedisStores({ redis: client, prefix: uniquePrefix('diff'), testClock: true });
    const clockKey = `${redis.prefix}clock`;
    await client.set(clockKey, String(start));
    return {
      reference: {
        mailbox: memory.mailbox,
        threadRuns: memory.threadRuns,
        eventLog: memory.eventLog,
        inbox: memory.inbox,
      },
      subject: {
        mailbox: redis.mailbox,
        threadRuns: redis.threadRuns,
        eventLog: redis.eventLog,
        inbox: redis.inbox,
      },
      async setClock(ms) {
        clock.advance(ms - clock.now());
        await client.set(clockKey, String(ms));
      },
      async destroy() {
        await redis.close();
        await deleteKeys(client, redis.prefix);
      },
    };
  },
});
