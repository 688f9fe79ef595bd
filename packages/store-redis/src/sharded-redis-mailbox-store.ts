import {
  AwakenError,
  type ClaimProof,
  type EnqueueDispatchInput,
  type MailboxInterrupt,
  type MailboxStore,
  type Page,
  type PageRequest,
  type RunDispatch,
  type RunDispatchResult,
  type RunDispatchStatus,
  mailboxStoreInputs as inputs,
} from '@awaken/contract';
import type { Redis } from 'ioredis';
import { mailboxShardPrefix, slotPrefix, threadShard } from './internal/cluster/cluster-topology';
import { DispatchShards } from './internal/cluster/dispatch-shards';
import { mergeStatusPages } from './internal/cluster/merge-status-pages';
import { rotatingClaim, shardedClaim, shardedReclaim } from './internal/cluster/sharded-claim';
import { toStoreError } from './internal/connection/redis-error';
import { normalizePrefix } from './internal/connection/redis-connection';
import { RedisMailboxStore } from './redis-mailbox-store';
import { type ReplicaWait, replicaWait } from './internal/lua/replica-wait';

export interface ShardedRedisMailboxStoreOptions {
  /** An ioredis `Cluster` (stays yours: `close()` leaves it open). */
  redis: Redis;
  /** Key prefix (without hash tags); default `awaken`. */
  prefix?: string;
  /**
   * How many shards; default: the cluster's masters, counted when the store first talks to it. A
   * thread's shard is a hash of its id modulo this number, so every process of a deployment must use
   * the same one: set it explicitly in production, and change it only on an empty mailbox.
   */
  shards?: number;
  requestTtlMs?: number;
  /**
   * How `claim` picks across shards. `'all-shards'` (default): reads every shard's next claimable
   * first and claims the best `limit` of the whole mailbox, in the order one queue would give (a peek
   * on every shard per claim). `'rotating'`: asks one shard at a time, the next one on each call,
   * topping up from the following shards when it has too few — one script call on one master when
   * the shard has enough; priority and enqueue order then hold within a shard, and across shards by
   * rotation (every shard is asked at least every S calls, so none starves).
   */
  claimFrom?: 'all-shards' | 'rotating';
  /**
   * Acknowledge a write only once this many replicas hold it (`WAIT` after each write; a write not
   * confirmed in time fails with `store_failure`). Off by default: Redis replication is asynchronous,
   * so a failover can lose a write its master acknowledged. See docs/guides/redis.md, "Failover".
   */
  waitForReplicas?: ReplicaWait;
  /** Tests only: every shard reads its frozen clock from `<shard prefix>clock`. */
  testClock?: boolean;
}

/**
 * The MailboxStore on a Redis Cluster, split into S shards, each a {@link RedisMailboxStore} with its
 * own ready / delayed / lease / terminal / status keys under its own hash tag (so each lives on one
 * master, and the shards spread over the masters: `internal/cluster/cluster-topology.ts`). A thread
 * belongs to one shard (a stable hash of its id), so everything the single-node store guarantees per
 * thread — order, one claim at a time, dedupe, epochs, interrupt — is one script on one shard.
 *
 * - `claim` and `reclaimExpiredLeases` go round the shards, starting at the next one each call, so
 *   no shard starves; a shard whose master cannot be reached (`store_failure`) is left out of the
 *   call and the others keep serving; `waitForWork` waits on every shard's wake-ups and returns on
 *   the first.
 * - A dispatch id is found on its shard from the thread of the call that made or claimed it
 *   (remembered per process), else by asking every shard whether it holds it (one EXISTS each).
 * - Tenant-wide views are fan-out reads merged on read: `countDispatches` sums the shards' status
 *   indexes, `listDispatchesByStatus` merges their pages newest first by `createdAt` (exact enqueue
 *   order within a shard; across shards, milliseconds of each master's clock), `purgeTerminal` sums.
 *   Fan-out rather than one shared index: a shared index would put every status change of every
 *   shard on one slot again, the bottleneck sharding removes; the reads are the rare side (a console,
 *   an operator), S commands each.
 */
export class ShardedRedisMailboxStore implements MailboxStore {
  readonly redis: Redis;
  readonly prefix: string;
  readonly #options: ShardedRedisMailboxStoreOptions;
  #shards: RedisMailboxStore[] | undefined;
  #opening: Promise<RedisMailboxStore[]> | undefined;
  #located: DispatchShards | undefined;
  #next = 0;
  #closed = false;

  constructor(options: ShardedRedisMailboxStoreOptions) {
    if (options.shards !== undefined && (!Number.isSafeInteger(options.shards) || options.shards < 1)) {
      throw new AwakenError('invalid_config', `shards must be an integer >= 1, got ${options.shards}`);
    }
    replicaWait(options.waitForReplicas); // a bad option fails here, not at the first call
    if (options.claimFrom !== undefined && !['all-shards', 'rotating'].includes(options.claimFrom)) {
      throw new AwakenError(
        'invalid_config',
        `claimFrom must be 'all-shards' or 'rotating', got ${options.claimFrom}`,
      );
    }
    this.redis = options.redis;
    this.prefix = normalizePrefix(options.prefix);
    this.#options = options;
  }

  /** The shard stores, in shard order (opened on first use). */
  shards(): Promise<RedisMailboxStore[]> {
    if (this.#shards) return Promise.resolve(this.#shards);
    this.#opening ??= (async () => {
      const count = this.#options.shards ?? (await countMasters(this.redis));
      const { requestTtlMs, testClock, waitForReplicas } = this.#options;
      const sequence = this.#sequence();
      const shards = Array.from(
        { length: count },
        (_, index) =>
          new RedisMailboxStore({
            redis: this.redis,
            prefix: mailboxShardPrefix(this.prefix, index, count),
            requestTtlMs,
            testClock,
            waitForReplicas,
            sequence,
          }),
      );
      this.#located = new DispatchShards(shards);
      this.#shards = shards;
      return shards;
    })();
    return this.#opening;
  }

  /**
   * The enqueue counter of the whole mailbox (one key, `<prefix>{<prefix>mseq}:seq`): one INCRBY per
   * enqueue batch, far cheaper than the enqueue itself, so claim order and the status views are
   * exact across shards.
   */
  #sequence(): (count: number) => Promise<number> {
    const key = `${slotPrefix(this.prefix, `${this.prefix}mseq`)}seq`;
    return async (count) => {
      try {
        return (await this.redis.incrby(key, count)) - count + 1;
      } catch (error) {
        throw toStoreError(error);
      }
    };
  }

  async now(): Promise<number> {
    const [first] = await this.shards();
    return (first as RedisMailboxStore).now();
  }

  async enqueue(input: EnqueueDispatchInput): Promise<RunDispatch> {
    inputs.enqueue.parse(input); // a bad input is rejected before any shard is asked about its id
    const shard = await this.#ofThread(input?.threadId);
    if (input?.dispatchId !== undefined) await this.#located?.refuseElsewhere(input.dispatchId, shard);
    return this.#remember(shard, await shard.enqueue(input));
  }

  async enqueueAndClaim(
    input: EnqueueDispatchInput & { workerId: string; leaseMs: number; dispatchInstanceId?: string },
  ): Promise<RunDispatch> {
    inputs.enqueueAndClaim.parse(input);
    const shard = await this.#ofThread(input?.threadId);
    if (input?.dispatchId !== undefined) await this.#located?.refuseElsewhere(input.dispatchId, shard);
    return this.#remember(shard, await shard.enqueueAndClaim(input));
  }

  /** The best `limit` dispatches of all shards, as one queue would order them (`cluster/sharded-claim.ts`). */
  async claim(input: { workerId: string; limit: number; leaseMs: number }): Promise<RunDispatch[]> {
    const parsed = inputs.claim.parse(input);
    const shards = await this.shards();
    const start = this.#next;
    this.#next = (this.#next + 1) % shards.length;
    const claimed =
      this.#options.claimFrom === 'rotating'
        ? await rotatingClaim(shards, parsed, start)
        : await shardedClaim(shards, parsed, start);
    return claimed.map(({ shard, dispatch }) => this.#remember(shard, dispatch));
  }

  async claimDispatch(input: { dispatchId: string; workerId: string; leaseMs: number }) {
    return this.#onDispatch(input?.dispatchId, (shard) => shard.claimDispatch(input));
  }

  ack(proof: ClaimProof & { result?: RunDispatchResult }): Promise<RunDispatch> {
    return this.#onDispatch(proof?.dispatchId, (shard) => shard.ack(proof));
  }

  nack(proof: ClaimProof & { error: string; retryAt?: number }): Promise<RunDispatch> {
    return this.#onDispatch(proof?.dispatchId, (shard) => shard.nack(proof));
  }

  deadLetter(proof: ClaimProof & { error: string }): Promise<RunDispatch> {
    return this.#onDispatch(proof?.dispatchId, (shard) => shard.deadLetter(proof));
  }

  cancel(dispatchId: string): Promise<RunDispatch> {
    return this.#onDispatch(dispatchId, (shard) => shard.cancel(dispatchId));
  }

  markRequeued(input: {
    dispatchId: string;
    runId: string;
    requeueDispatchId: string;
  }): Promise<RunDispatch> {
    return this.#onDispatch(input?.dispatchId, (shard) => shard.markRequeued(input));
  }

  extendLease(proof: ClaimProof & { leaseMs: number }): Promise<RunDispatch> {
    return this.#onDispatch(proof?.dispatchId, (shard) => shard.extendLease(proof));
  }

  async interrupt(threadId: string): Promise<MailboxInterrupt> {
    return (await this.#ofThread(threadId)).interrupt(threadId);
  }

  supersedeClaimed(dispatchId: string): Promise<RunDispatch> {
    return this.#onDispatch(dispatchId, (shard) => shard.supersedeClaimed(dispatchId));
  }

  recordDispatchStart(proof: ClaimProof & { dispatchInstanceId: string }): Promise<RunDispatch> {
    return this.#onDispatch(proof?.dispatchId, (shard) => shard.recordDispatchStart(proof));
  }

  recordRunResult(proof: ClaimProof & { result: RunDispatchResult }): Promise<RunDispatch> {
    return this.#onDispatch(proof?.dispatchId, (shard) => shard.recordRunResult(proof));
  }

  loadDispatch(dispatchId: string): Promise<RunDispatch | null> {
    return this.#onDispatch(dispatchId, (shard) => shard.loadDispatch(dispatchId));
  }

  async listDispatches(
    threadId: string,
    query?: PageRequest & { status?: RunDispatchStatus[] },
  ): Promise<Page<RunDispatch>> {
    return (await this.#ofThread(threadId)).listDispatches(threadId, query);
  }

  async countDispatches(): Promise<Record<RunDispatchStatus, number>> {
    const counts = await Promise.all((await this.shards()).map((shard) => shard.countDispatches()));
    const total = { ...(counts[0] as Record<RunDispatchStatus, number>) };
    for (const count of counts.slice(1))
      for (const status of Object.keys(total) as RunDispatchStatus[]) total[status] += count[status];
    return total;
  }

  async listDispatchesByStatus(status: RunDispatchStatus, page?: PageRequest): Promise<Page<RunDispatch>> {
    return mergeStatusPages(await this.shards(), status, page);
  }

  async threadEpoch(threadId: string): Promise<number> {
    return (await this.#ofThread(threadId)).threadEpoch(threadId);
  }

  async reclaimExpiredLeases(input?: { limit?: number }): Promise<RunDispatch[]> {
    const { limit } = inputs.reclaimExpiredLeases.parse(input ?? {});
    const shards = await this.shards();
    const start = this.#next;
    this.#next = (this.#next + 1) % shards.length;
    const reclaimed = await shardedReclaim(shards, limit, start);
    return reclaimed.map(({ shard, dispatch }) => this.#remember(shard, dispatch));
  }

  async purgeTerminal(input: { olderThan: number; status?: RunDispatchStatus[] }): Promise<number> {
    const shards = await this.shards();
    // one shard first: it rejects a bad input before any shard deletes anything
    const first = await (shards[0] as RedisMailboxStore).purgeTerminal(input);
    const rest = await Promise.all(shards.slice(1).map((shard) => shard.purgeTerminal(input)));
    return rest.reduce((sum, count) => sum + count, first);
  }

  /** Waits on every shard's wake-ups at once; the first that wakes ends the others' waits. */
  async waitForWork(options: { timeoutMs: number; signal?: AbortSignal }): Promise<boolean> {
    const shards = await this.shards();
    if (shards.length === 1) return (shards[0] as RedisMailboxStore).waitForWork(options);
    const done = new AbortController();
    const onAbort = () => done.abort();
    options?.signal?.addEventListener('abort', onAbort, { once: true });
    if (options?.signal?.aborted) done.abort();
    try {
      const waits = shards.map((shard) =>
        shard.waitForWork({ timeoutMs: options?.timeoutMs, signal: done.signal }).then((woken) => {
          if (woken) done.abort();
          return woken;
        }),
      );
      return (await Promise.all(waits)).some(Boolean);
    } finally {
      options?.signal?.removeEventListener('abort', onAbort);
      done.abort();
    }
  }

  /** Closes every shard's blocking connections (the cluster client stays open: it is yours). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const shards = this.#shards ?? (this.#opening ? await this.#opening.catch(() => []) : []);
    await Promise.all(shards.map((shard) => shard.close()));
  }

  async #ofThread(threadId: unknown): Promise<RedisMailboxStore> {
    const shards = await this.shards();
    // a missing or malformed thread id: shard 0 rejects it as the single-node store would
    const index = typeof threadId === 'string' ? threadShard(threadId, shards.length) : 0;
    return shards[index] as RedisMailboxStore;
  }

  #remember(shard: RedisMailboxStore, dispatch: RunDispatch): RunDispatch {
    this.#located?.remember(dispatch.dispatchId, shard);
    return dispatch;
  }

  async #onDispatch<T>(dispatchId: unknown, run: (shard: RedisMailboxStore) => Promise<T>): Promise<T> {
    await this.shards();
    return (this.#located as DispatchShards).run(dispatchId, run);
  }
}

async function countMasters(cluster: Redis): Promise<number> {
  const nodes = (cluster as unknown as { nodes(role: string): unknown[] }).nodes;
  if (cluster.status !== 'ready') await cluster.ping();
  return Math.max(1, nodes.call(cluster, 'master').length);
}

/** Creates a {@link ShardedRedisMailboxStore}. */
export function createShardedRedisMailboxStore(
  options: ShardedRedisMailboxStoreOptions,
): ShardedRedisMailboxStore {
  return new ShardedRedisMailboxStore(options);
}
