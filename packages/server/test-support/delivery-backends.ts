import { randomUUID } from 'node:crypto';
import type { MailboxStore, ThreadRunStore } from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { createPostgresStores } from '@awaken/store-postgres';
import { createRedisStores } from '@awaken/store-redis';
import { inject } from 'vitest';

/** The stores of a notification outbox, with a way to close them. */
export interface DeliveryStores {
  threadRuns: ThreadRunStore;
  mailbox: MailboxStore;
  close(): Promise<void>;
}

/** Delivery stores on each backend (a fresh Redis prefix / PostgreSQL schema named after `label` per open). */
export function deliveryBackends(label: string): { name: string; open(): DeliveryStores }[] {
  const id = () => randomUUID().replaceAll('-', '').slice(0, 12);
  return [
    { name: 'memory', open: () => ({ ...createMemoryStores(), close: async () => {} }) },
    {
      name: 'Redis',
      open: () => createRedisStores({ redis: inject('redisUrl'), prefix: `${label}:${id()}:` }),
    },
    {
      name: 'PostgreSQL',
      open: () =>
        createPostgresStores({
          postgres: inject('postgresUrl'),
          schema: `${label.replaceAll('-', '_')}_${id()}`,
        }),
    },
  ];
}
