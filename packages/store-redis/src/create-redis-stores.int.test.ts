import { DEFAULT_FINISHED_LOG_TTL_MS, decisionControl } from '@awaken/contract';
import {
  type JointStores,
  type LeaseAndLogStores,
  type RunScopedStores,
  describeAcquireWithFenceConformance,
  describeCheckpointWithEventsConformance,
  describeRunExpiryConformance,
} from '@awaken/store-conformance';
import { describe, expect, inject, it } from 'vitest';
import { type RedisStores, createRedisStores } from './create-redis-stores';
import { deleteKeys, uniquePrefix } from '../test-support/redis-harness';

const owners = new WeakMap<RunScopedStores, RedisStores>();

describeRunExpiryConformance({
  name: 'redis (createRedisStores)',
  async create() {
    const stores = createRedisStores({ redis: inject('redisUrl'), prefix: uniquePrefix('expiry') });
    const scoped = { eventLog: stores.eventLog, inbox: stores.inbox };
    owners.set(scoped, stores);
    return scoped;
  },
  async destroy(scoped) {
    const stores = owners.get(scoped);
    if (stores === undefined) return;
    await deleteKeys(stores.redis, stores.prefix);
    await stores.close();
  },
});

const jointOwners = new WeakMap<JointStores, RedisStores>();

describeCheckpointWithEventsConformance({
  name: 'redis (createRedisStores)',
  async create() {
    const stores = createRedisStores({ redis: inject('redisUrl'), prefix: uniquePrefix('joint') });
    const joint = { threadRuns: stores.threadRuns, eventLog: stores.eventLog };
    jointOwners.set(joint, stores);
    return joint;
  },
  async destroy(joint) {
    const stores = jointOwners.get(joint);
    if (stores === undefined) return;
    await deleteKeys(stores.redis, stores.prefix);
    await stores.close();
  },
});

const leaseOwners = new WeakMap<LeaseAndLogStores, RedisStores>();

describeAcquireWithFenceConformance({
  name: 'redis (createRedisStores)',
  async create() {
    const stores = createRedisStores({ redis: inject('redisUrl'), prefix: uniquePrefix('acquire') });
    const pair = { threadRuns: stores.threadRuns, eventLog: stores.eventLog };
    leaseOwners.set(pair, stores);
    return pair;
  },
  async destroy(pair) {
    const stores = leaseOwners.get(pair);
    if (stores === undefined) return;
    await deleteKeys(stores.redis, stores.prefix);
    await stores.close();
  },
});

describe('createRedisStores', () => {
  it('keeps a finished log and its inbox for one hour when finish gets no ttlMs', async () => {
    const stores = createRedisStores({ redis: inject('redisUrl'), prefix: uniquePrefix('ttl') });
    try {
      const event = { type: 'text_delta' as const, runId: 'r1', seq: 1, at: 1, messageId: 'm', delta: 'a' };
      await stores.eventLog.append('r1', [event]);
      await stores.inbox.put('r1', { kind: 'cancel', id: 'x1', at: 1 });
      await stores.inbox.put(
        'r1',
        decisionControl({ decisionId: 'd1', toolCallId: 'c1', action: 'resume', updatedAt: 1 }),
      );
      await stores.eventLog.finish('r1');
      for (const key of ['ev:r1', 'evm:r1', 'ctq:r1', 'cte:r1', 'ctc:r1', 'ctk:r1']) {
        const ttl = await stores.redis.pttl(`${stores.prefix}${key}`);
        expect(ttl).toBeGreaterThan(DEFAULT_FINISHED_LOG_TTL_MS - 60_000);
        expect(ttl).toBeLessThanOrEqual(DEFAULT_FINISHED_LOG_TTL_MS);
      }
    } finally {
      await deleteKeys(stores.redis, stores.prefix);
      await stores.close();
    }
  });

  it('ends a pending waitForWork and closes the mailbox’s blocking connection on close()', async () => {
    const stores = createRedisStores({ redis: inject('redisUrl'), prefix: uniquePrefix('close') });
    const waiting = stores.mailbox.waitForWork({ timeoutMs: 60_000 });
    // the blocking read is issued on its own connection once the marker list is checked
    await stores.redis.ping();
    const started = Date.now();
    await stores.close();
    expect(await waiting).toBe(false);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
