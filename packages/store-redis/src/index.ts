export { createRedisStores } from './create-redis-stores';
export type { RedisStores, RedisStoresOptions } from './create-redis-stores';
export { RedisMailboxStore, createRedisMailboxStore } from './redis-mailbox-store';
export type { RedisMailboxStoreOptions } from './redis-mailbox-store';
export { ShardedRedisMailboxStore, createShardedRedisMailboxStore } from './sharded-redis-mailbox-store';
export type { ShardedRedisMailboxStoreOptions } from './sharded-redis-mailbox-store';
export {
  ShardedRedisThreadRunStore,
  createShardedRedisThreadRunStore,
} from './sharded-redis-thread-run-store';
export type { ShardedRedisThreadRunStoreOptions } from './sharded-redis-thread-run-store';
export { ShardedRedisRunEventLog } from './sharded-redis-run-event-log';
export type { ShardedRedisRunEventLogOptions } from './sharded-redis-run-event-log';
export { ShardedRedisRunControlInbox } from './sharded-redis-run-control-inbox';
export type { ShardedRedisRunControlInboxOptions } from './sharded-redis-run-control-inbox';
export { RedisThreadRunStore, createRedisThreadRunStore } from './redis-thread-run-store';
export type { RedisThreadRunStoreOptions } from './redis-thread-run-store';
export { RedisRunEventLog, createRedisRunEventLog } from './redis-run-event-log';
export type { RedisRunEventLogOptions } from './redis-run-event-log';
export { RedisRunControlInbox, createRedisRunControlInbox } from './redis-run-control-inbox';
export type { RedisRunControlInboxOptions } from './redis-run-control-inbox';
export type { RedisClientLike } from './internal/connection/redis-connection';
export { MAILBOX_LUA } from './internal/lua/mailbox/mailbox-lua-sources';
export type { RedisInput } from './internal/connection/redis-connection';
export {
  OUTAGE_TOLERANT_REDIS_OPTIONS,
  createRedisClient,
  type CreateRedisClientOptions,
} from './internal/connection/outage-tolerant-options';
export type { ConnectionLogSink } from './internal/connection/connection-log';
export {
  createRedisClusterClient,
  parseClusterNodes,
  type CreateRedisClusterClientOptions,
} from './internal/connection/cluster-client';
export type { ReplicaWait } from './internal/lua/replica-wait';
