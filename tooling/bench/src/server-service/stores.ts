import type { ServiceStores } from '@awaken/server';
import { createMemoryStores } from '@awaken/store-memory';
import type { RedisStores } from '@awaken/store-redis';

/** The service's view of a Redis store bundle. */
export function redisServiceStores(redis: RedisStores): ServiceStores {
  return {
    threadRuns: redis.threadRuns,
    mailbox: redis.mailbox,
    eventLog: redis.eventLog,
    inbox: redis.inbox,
  };
}

export function memoryServiceStores(): ServiceStores {
  const memory = createMemoryStores();
  return {
    threadRuns: memory.threadRuns,
    mailbox: memory.mailbox,
    eventLog: memory.eventLog,
    inbox: memory.inbox,
  };
}
