import type { AwakenStores } from '@awaken/contract';
import type { Redis } from 'ioredis';
import {
  type RedisInput,
  closeRedis,
  normalizePrefix,
  resolveRedis,
} from './internal/connection/redis-connection';
import { isCluster } from './internal/cluster/cluster-topology';
import { storePrefix } from './internal/lua/script-context';
import { RedisMailboxStore } from './redis-mailbox-store';
import { RedisRunControlInbox } from './redis-run-control-inbox';
import { RedisRunEventLog } from './redis-run-event-log';
import { RedisThreadRunStore } from './redis-thread-run-store';
import { ShardedRedisMailboxStore } from './sharded-redis-mailbox-store';
import { ShardedRedisRunControlInbox } from './sharded-redis-run-control-inbox';
import { ShardedRedisRunEventLog } from './sharded-redis-run-event-log';
import { ShardedRedisThreadRunStore } from './sharded-redis-thread-run-store';
import { RunLocator } from './internal/cluster/run-locator';
import { ShardPrefixes } from './internal/cluster/shard-prefixes';
import type { ReplicaWait } from './internal/lua/replica-wait';

export interface RedisStoresOptions {
  /**
   * An ioredis client or `Cluster` (stays yours: `close()` leaves it open), client options or a
   * `redis://` URL. On a Cluster the keys get hash tags and the mailbox is sharded over the masters
   * (see the README and docs/guides/redis.md, "Redis Cluster").
   */
  redis: RedisInput;
  /** Key prefix shared by the four stores; default `awaken`. Use one per tenant or test. */
  prefix?: string;
  /** How long the event log (and control inbox) of a finished run is kept; default one hour. */
  finishedEventLogTtlMs?: number;
  /**
   * How long each write's reply is kept for a request re-sent after a lost reply (ioredis re-sends
   * unanswered commands when it reconnects); default two minutes, 0 turns it off. See the README.
   */
  requestTtlMs?: number;
  /**
   * Acknowledge a write only once this many replicas hold it (`WAIT` after each write; a write not
   * confirmed in time fails with `store_failure`). Off by default: Redis replication is asynchronous,
   * so a failover can lose a write its master acknowledged. See docs/guides/redis.md, "Failover".
   */
  waitForReplicas?: ReplicaWait;
  /**
   * On a Cluster: how many mailbox shards (a thread's shard is a hash of its id modulo this number,
   * so every process must use the same); default the cluster's masters, counted on first use. Pin it
   * in production and change it only on an empty mailbox. Ignored on a single node.
   */
  mailboxShards?: number;
  /** On a Cluster: how `claim` picks across mailbox shards (see `ShardedRedisMailboxStoreOptions`). */
  mailboxClaimFrom?: 'all-shards' | 'rotating';
  /** Tests only: the mailbox and thread/run scripts read a frozen clock from `<prefix>clock`. */
  testClock?: boolean;
}

/**
 * The four Redis stores over one shared command connection, in the contract's bundle shape
 * (`createAgentRuntime({ stores })` and the server take it as is), with the connection and `close`.
 */
export interface RedisStores extends AwakenStores {
  redis: Redis;
  /** The key prefix (on a Cluster: the prefix as given, each shard adding its hash tag to it). */
  prefix: string;
  /** A {@link ShardedRedisMailboxStore} on a Cluster. */
  mailbox: RedisMailboxStore | ShardedRedisMailboxStore;
  /** A {@link ShardedRedisThreadRunStore} on a Cluster. */
  threadRuns: RedisThreadRunStore | ShardedRedisThreadRunStore;
  /** A {@link ShardedRedisRunEventLog} on a Cluster. */
  eventLog: RedisRunEventLog | ShardedRedisRunEventLog;
  /** A {@link ShardedRedisRunControlInbox} on a Cluster. */
  inbox: RedisRunControlInbox | ShardedRedisRunControlInbox;
  /**
   * Closes the dedicated blocking connections (event log tails, the mailbox's `waitForWork`) and
   * pub/sub connections, and the shared one if it was created here.
   */
  close(): Promise<void>;
}

/**
 * Creates every Redis store on one command connection and one prefix (so a finished run's control
 * inbox expires with its event log). The event log's blocking reads and the control inbox's
 * subscriptions each use their own duplicated connections, opened on first use.
 */
export function createRedisStores(options: RedisStoresOptions): RedisStores {
  const { client, owned } = resolveRedis(options.redis);
  if (isCluster(client)) return clusterStores(client, options, owned);
  const prefix = storePrefix(client, options.prefix);
  const { requestTtlMs, testClock, waitForReplicas } = options;
  const eventLog = new RedisRunEventLog({
    redis: client,
    prefix,
    finishedTtlMs: options.finishedEventLogTtlMs,
    requestTtlMs,
    waitForReplicas,
  });
  const inbox = new RedisRunControlInbox({ redis: client, prefix, requestTtlMs, waitForReplicas });
  const mailbox = new RedisMailboxStore({ redis: client, prefix, requestTtlMs, testClock, waitForReplicas });
  return {
    redis: client,
    prefix,
    mailbox,
    threadRuns: new RedisThreadRunStore({ redis: client, prefix, requestTtlMs, testClock, waitForReplicas }),
    eventLog,
    inbox,
    async close() {
      await Promise.all([eventLog.close(), inbox.close(), mailbox.close()]);
      if (owned) await closeRedis(client);
    },
  };
}

/**
 * The stores on a Redis Cluster: S shards (the mailbox's), thread T's thread/run/event-log/inbox keys
 * and its dispatches all under shard `threadShard(T, S)`'s hash tag, so every per-thread script runs
 * on one master and the threads spread over the masters (docs/guides/redis.md, "Redis Cluster").
 */
function clusterStores(client: Redis, options: RedisStoresOptions, owned: boolean): RedisStores {
  const prefix = normalizePrefix(options.prefix);
  const { requestTtlMs, testClock, waitForReplicas, mailboxShards: shards } = options;
  const shardPrefixes = new ShardPrefixes(client, prefix, shards);
  const locator = new RunLocator(client, shardPrefixes);
  const shared = { redis: client, prefix, shards, requestTtlMs, waitForReplicas, shardPrefixes, locator };
  const eventLog = new ShardedRedisRunEventLog({ ...shared, finishedTtlMs: options.finishedEventLogTtlMs });
  const inbox = new ShardedRedisRunControlInbox(shared);
  const threadRuns = new ShardedRedisThreadRunStore({ ...shared, testClock });
  const mailbox = new ShardedRedisMailboxStore({
    redis: client,
    prefix,
    shards,
    claimFrom: options.mailboxClaimFrom,
    requestTtlMs,
    testClock,
    waitForReplicas,
  });
  return {
    redis: client,
    prefix,
    mailbox,
    threadRuns,
    eventLog,
    inbox,
    async close() {
      await Promise.all([eventLog.close(), inbox.close(), mailbox.close(), threadRuns.close()]);
      if (owned) await closeRedis(client);
    },
  };
}
