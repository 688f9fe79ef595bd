import {
  type AcquireWithFence,
  AwakenError,
  type BranchListRequest,
  type Checkpoint,
  type CheckpointWithEvents,
  type CreateBranchInput,
  type CreateRunWithLeaseInput,
  type CreateThreadInput,
  type CreatedRunWithLease,
  type MessageRecord,
  type NewMessage,
  type Page,
  type PageRequest,
  type RunCreationWithLease,
  type RunEventLog,
  type RunLease,
  type RunLeaseProof,
  type RunRecord,
  type RunStatus,
  type Thread,
  type ThreadBranching,
  type ThreadListRequest,
  type ThreadRunStore,
  type Visibility,
  offerTrustedView,
  runStatusSchema,
  threadRunStoreInputs,
  trustedStoreInputs,
  trustedViewOf,
} from '@awaken/contract';
import type { Redis } from 'ioredis';
import { slotPrefix, threadShard } from './internal/cluster/cluster-topology';
import { type IndexShard, mergeIndexPages } from './internal/cluster/merge-index-pages';
import { hasRunData, moveEarlyRunKeys } from './internal/cluster/move-early-run-keys';
import { RunLocator } from './internal/cluster/run-locator';
import { ShardPrefixes } from './internal/cluster/shard-prefixes';
import { normalizePrefix } from './internal/connection/redis-connection';
import { toStoreError } from './internal/connection/redis-error';
import { threadRunKeys } from './internal/keys/thread-run-keys';
import { uuidV7 } from './internal/keys/uuid-v7';
import type { ReplicaWait } from './internal/lua/replica-wait';
import { SWAP_RUN_LOCATOR } from './internal/lua/threads/swap-run-locator';
import { pipelined } from './internal/paging/page-index';
import { decodeRun, decodeThread } from './internal/thread-runs/thread-codec';
import { RedisThreadRunStore } from './redis-thread-run-store';
import { ShardedRedisRunEventLog } from './sharded-redis-run-event-log';

export interface ShardedRedisThreadRunStoreOptions {
  /** An ioredis `Cluster` (stays yours: `close()` leaves it open). */
  redis: Redis;
  /** Key prefix (without hash tags); default `awaken`. */
  prefix?: string;
  /** How many shards; default the cluster's masters (must match the mailbox's: a thread's keys share its shard). */
  shards?: number;
  requestTtlMs?: number;
  waitForReplicas?: ReplicaWait;
  /** Tests only: every shard reads its frozen clock from `<shard prefix>clock`. */
  testClock?: boolean;
  /** Internal: the run locator shared with the sharded event log and inbox of the same stores. */
  locator?: RunLocator;
  /** Internal: the shard prefixes shared with the sharded event log and inbox of the same stores. */
  shardPrefixes?: ShardPrefixes;
}

const trustedInputs = trustedStoreInputs(threadRunStoreInputs);

/**
 * The ThreadRunStore on a Redis Cluster, split into the S shards of the mailbox: thread T's keys
 * (thread, messages, runs, branch list) live under the slot prefix of shard `threadShard(T, S)` — the
 * shard its dispatches live on — so every per-thread script runs on one master, as on one node. A run
 * lives on its thread's shard; a call naming a run only finds it through the run locator
 * (`internal/cluster/run-locator.ts`: an immutable runId → threadId entry written before the run).
 *
 * - Tenant-wide views (`listThreads`, `listRunsByStatus`, `listAllRuns`) are per-shard indexes merged
 *   on read (`internal/cluster/merge-index-pages.ts`): one range read per shard per page. The shards
 *   take their seqs from one counter (`<prefix>{<prefix>tseq}:seq`, one INCRBY per write that moves
 *   an index), so the merged order is exactly the single node's and cursors stay scores. A per-shard
 *   index rather than one shared index: a shared one would put every write of every thread on one
 *   slot again; the counter is one cheap command, the writes themselves spread.
 * - A branch is a thread like any other (its shard is its own id's hash); when that is not its
 *   source's shard, `createBranch` reads the source, writes the branch on its shard
 *   (`createBranchOf`), then adds it to the source's branch list: three commands, not one atomic
 *   script (a source deleted meanwhile leaves a branch pointing at nothing). Reading a branch's log
 *   reads the source's prefix from the source's shard (the prefix never changes).
 */
export class ShardedRedisThreadRunStore implements ThreadRunStore, RunCreationWithLease, ThreadBranching {
  readonly redis: Redis;
  readonly prefix: string;
  readonly #options: ShardedRedisThreadRunStoreOptions;
  readonly #prefixes: ShardPrefixes;
  readonly #locator: RunLocator;
  readonly #inputs: typeof threadRunStoreInputs;
  readonly #untrusted: ShardedRedisThreadRunStore | undefined;
  #shards: Promise<RedisThreadRunStore[]> | undefined;

  constructor(options: ShardedRedisThreadRunStoreOptions, trustedTwinOf?: ShardedRedisThreadRunStore) {
    this.redis = options.redis;
    this.prefix = normalizePrefix(options.prefix);
    this.#options = options;
    if (trustedTwinOf !== undefined) {
      this.#prefixes = trustedTwinOf.#prefixes;
      this.#locator = trustedTwinOf.#locator;
      this.#inputs = trustedInputs;
      this.#untrusted = trustedTwinOf;
      return;
    }
    this.#prefixes = options.shardPrefixes ?? new ShardPrefixes(this.redis, this.prefix, options.shards);
    this.#locator = options.locator ?? new RunLocator(this.redis, this.#prefixes);
    this.#inputs = threadRunStoreInputs;
    this.#untrusted = undefined;
    offerTrustedView(this, new ShardedRedisThreadRunStore(options, this));
  }

  /** The shard stores, in shard order (opened on first use; the trusted view: their trusted views). */
  shards(): Promise<RedisThreadRunStore[]> {
    if (this.#untrusted) {
      this.#shards ??= this.#untrusted.shards().then((stores) => stores.map((store) => trustedViewOf(store)));
      return this.#shards;
    }
    this.#shards ??= this.#prefixes.resolve().then((prefixes) => {
      const { requestTtlMs, testClock, waitForReplicas } = this.#options;
      const sequence = this.#sequence();
      const stores: RedisThreadRunStore[] = prefixes.map(
        (prefix) =>
          new RedisThreadRunStore({
            redis: this.redis,
            prefix,
            requestTtlMs,
            testClock,
            waitForReplicas,
            sequence,
            shardOf: (threadId) => stores[threadShard(threadId, stores.length)] as RedisThreadRunStore,
          }),
      );
      return stores;
    });
    return this.#shards;
  }

  async createThread(input: CreateThreadInput): Promise<Thread> {
    const parsed = this.#inputs.createThread.parse(input);
    const id = parsed.id ?? uuidV7();
    return (await this.#ofThread(id)).createThread({ ...parsed, id });
  }

  async getThread(threadId: string): Promise<Thread | null> {
    return (await this.#ofThread(threadId)).getThread(threadId);
  }

  async listThreads(page?: ThreadListRequest): Promise<Page<Thread>> {
    const parsed = this.#inputs.listThreads.parse(page ?? {});
    const newest = parsed.order === 'newest';
    const shards = await this.shards();
    return mergeIndexPages<Thread>({
      shards: shards.map((shard) => {
        const keys = threadRunKeys(shard.prefix);
        return {
          redis: this.redis,
          keys: [newest ? keys.threadsWritten : keys.threads],
          load: (ids) => loadThreads(this.redis, shard.prefix, ids),
        };
      }),
      reverse: newest,
      cursor: parsed.cursor,
      limit: parsed.limit,
    });
  }

  async deleteThread(threadId: string): Promise<boolean> {
    if (typeof threadId !== 'string') return (await this.#ofThread(threadId)).deleteThread(threadId);
    const shard = await this.#ofThread(threadId);
    const keys = threadRunKeys(shard.prefix);
    let source: string | null;
    let runs: string[];
    try {
      [source, runs] = await Promise.all([
        this.redis.hget(keys.thread(threadId), 'branchSource'),
        this.redis.zrange(keys.threadRuns(threadId), 0, -1),
      ]);
    } catch (error) {
      throw toStoreError(error);
    }
    const deleted = await shard.deleteThread(threadId);
    if (!deleted) return false;
    const sourceShard = source === null ? shard : await this.#ofThread(source);
    try {
      if (source !== null && sourceShard !== shard) {
        await this.redis.zrem(threadRunKeys(sourceShard.prefix).threadBranches(source), threadId);
      }
    } catch (error) {
      throw toStoreError(error);
    }
    await this.#locator.forget(runs);
    return true;
  }

  async updateThreadMetadata(threadId: string, metadata: Record<string, unknown>): Promise<Thread> {
    return (await this.#ofThread(threadId)).updateThreadMetadata(threadId, metadata);
  }

  async getThreadState(threadId: string): Promise<Record<string, unknown>> {
    return (await this.#ofThread(threadId)).getThreadState(threadId);
  }

  async appendMessages(
    threadId: string,
    input: { expectedLength: number; messages: NewMessage[] },
  ): Promise<MessageRecord[]> {
    return (await this.#ofThread(threadId)).appendMessages(threadId, input);
  }

  async readMessages(
    threadId: string,
    range?: { from?: number; to?: number; visibility?: Visibility },
  ): Promise<MessageRecord[]> {
    return (await this.#ofThread(threadId)).readMessages(threadId, range);
  }

  async messageCount(threadId: string): Promise<number> {
    return (await this.#ofThread(threadId)).messageCount(threadId);
  }

  /** A branch of `threadId` at `atSeq`, on its own shard (see the class comment). */
  async createBranch(input: CreateBranchInput): Promise<Thread> {
    const parsed = this.#inputs.createBranch.parse(input);
    const id = parsed.id ?? uuidV7();
    const source = await this.#ofThread(parsed.threadId);
    const branch = await this.#ofThread(id);
    if (branch === source) return source.createBranch({ ...parsed, id });
    const keys = threadRunKeys(source.prefix);
    let fields: Record<string, string>;
    let own: number;
    try {
      [fields, own] = await Promise.all([
        this.redis.hgetall(keys.thread(parsed.threadId)),
        this.redis.llen(keys.messages(parsed.threadId)),
      ]);
    } catch (error) {
      throw toStoreError(error);
    }
    if (fields.id === undefined) throw new AwakenError('not_found', `thread ${parsed.threadId} not found`);
    const count = own + Number(fields.branchSeq ?? 0);
    if (parsed.atSeq > count) {
      throw new AwakenError(
        'not_found',
        `thread ${parsed.threadId} has no message ${parsed.atSeq} (it has ${count})`,
      );
    }
    const created = await branch.createBranchOf({
      branchId: id,
      sourceId: parsed.threadId,
      atSeq: parsed.atSeq,
      metadata: JSON.stringify(parsed.metadata ?? {}),
      title: fields.title ?? '',
    });
    try {
      await this.redis.zadd(keys.threadBranches(parsed.threadId), created.seq, id);
    } catch (error) {
      throw toStoreError(error);
    }
    return created.thread;
  }

  async listBranches(threadId: string, query?: BranchListRequest): Promise<Page<Thread>> {
    return (await this.#ofThread(threadId)).listBranches(threadId, query);
  }

  async createRun(record: RunRecord): Promise<RunRecord> {
    const run = this.#inputs.createRun.parse(record);
    await this.#record(run, false);
    return (await this.#ofThread(run.threadId)).createRun(run);
  }

  async createRunWithLease(record: RunRecord, input: CreateRunWithLeaseInput): Promise<CreatedRunWithLease> {
    const parsed = this.#inputs.createRunWithLease.parse({
      run: record,
      owner: input?.owner,
      leaseMs: input?.leaseMs,
      createThread: input?.createThread,
    });
    await this.#record(parsed.run, parsed.createThread === true);
    const { run, ...rest } = parsed;
    return (await this.#ofThread(run.threadId)).createRunWithLease(run, rest);
  }

  async getRun(runId: string): Promise<RunRecord | null> {
    const found = await (await this.#ofRun(runId)).getRun(runId);
    // nothing where this process remembered the run: its thread may have been deleted by another
    // process and the id used again on another thread's shard; read the entry again, once
    if (found !== null || typeof runId !== 'string' || !this.#locator.forgetRemembered(runId)) return found;
    return (await this.#ofRun(runId)).getRun(runId);
  }

  async listRuns(threadId: string, query?: PageRequest & { status?: RunStatus[] }): Promise<Page<RunRecord>> {
    return (await this.#ofThread(threadId)).listRuns(threadId, query);
  }

  async listRunsByStatus(status: RunStatus, query?: PageRequest): Promise<Page<RunRecord>> {
    const parsed = this.#inputs.listRunsByStatus.parse({ ...query, status });
    return this.#mergeRuns([parsed.status], parsed);
  }

  async listAllRuns(query?: PageRequest & { status?: RunStatus[] }): Promise<Page<RunRecord>> {
    const { status, ...page } = this.#inputs.listAllRuns.parse({ ...query });
    return this.#mergeRuns(status ?? runStatusSchema.options, page);
  }

  async commitCheckpoint(checkpoint: Checkpoint): Promise<RunRecord> {
    try {
      return await (await this.#ofThread(checkpoint?.threadId)).commitCheckpoint(checkpoint);
    } catch (error) {
      throw await this.#runElsewhere(error, checkpoint);
    }
  }

  /**
   * The joint writer for the sharded event log of the same cluster and prefix: the thread's shard
   * store with its shard's log (the run's events live on its thread's shard); undefined for any other log.
   */
  checkpointWithEvents(log: RunEventLog): CheckpointWithEvents | undefined {
    if (!(log instanceof ShardedRedisRunEventLog) || log.redis !== this.redis || log.prefix !== this.prefix)
      return undefined;
    return {
      commitCheckpointWithEvents: async (input, events) => {
        // the run's shard: its events and record (and, for a well-formed checkpoint, its thread) live there
        const [shards, logs] = await Promise.all([this.shards(), log.shards()]);
        const runId = input?.run?.runId;
        const index =
          typeof runId === 'string' && runId.length > 0
            ? await this.#locator.shardOf(runId)
            : typeof input?.threadId === 'string'
              ? threadShard(input.threadId, shards.length)
              : 0;
        const writer = (shards[index] as RedisThreadRunStore).checkpointWithEvents(
          logs[index] as RunEventLog,
        ) as CheckpointWithEvents;
        return writer.commitCheckpointWithEvents(input, events);
      },
    };
  }

  /** The joint acquisition of the run's shard, whose log keys live beside its record (as above). */
  acquireWithFence(log: RunEventLog): AcquireWithFence | undefined {
    if (!(log instanceof ShardedRedisRunEventLog) || log.redis !== this.redis || log.prefix !== this.prefix)
      return undefined;
    const onShard = async (runId: string, request: { owner: string; leaseMs: number }) => {
      const [shards, logs] = await Promise.all([this.shards(), log.shards()]);
      const index = typeof runId === 'string' && runId.length > 0 ? await this.#locator.shardOf(runId) : 0;
      const joint = (shards[index] as RedisThreadRunStore).acquireWithFence(
        logs[index] as RunEventLog,
      ) as AcquireWithFence;
      return joint.acquireRunWithFence(runId, request);
    };
    return {
      acquireRunWithFence: async (runId, request) => {
        try {
          return await onShard(runId, request);
        } catch (error) {
          // as in acquireRun: a remembered thread that no longer holds the run is read again, once
          if (!AwakenError.hasCode(error, 'not_found') || typeof runId !== 'string') throw error;
          if (!this.#locator.forgetRemembered(runId)) throw error;
          return onShard(runId, request);
        }
      },
    };
  }

  async acquireRun(runId: string, request: { owner: string; leaseMs: number }): Promise<RunLease> {
    try {
      return await (await this.#ofRun(runId)).acquireRun(runId, request);
    } catch (error) {
      // as in getRun: a remembered thread that no longer holds the run is read again, once
      if (!AwakenError.hasCode(error, 'not_found') || typeof runId !== 'string') throw error;
      if (!this.#locator.forgetRemembered(runId)) throw error;
      return (await this.#ofRun(runId)).acquireRun(runId, request);
    }
  }

  async renewRun(proof: RunLeaseProof & { leaseMs: number }): Promise<RunLease> {
    return (await this.#ofRun(proof?.runId)).renewRun(proof);
  }

  async releaseRun(proof: RunLeaseProof): Promise<boolean> {
    return (await this.#ofRun(proof?.runId)).releaseRun(proof);
  }

  /** Nothing to close: the shard stores share the cluster client, which stays yours. */
  async close(): Promise<void> {}

  /**
   * A checkpoint naming a run of another thread reaches the named thread's shard, which has no such
   * run (`not_found`); one node answers as the script's checks would on the run's own record: a fence
   * other than the run's is `stale_claim`, else `conflict`. Any other error is returned as is.
   */
  async #runElsewhere(error: unknown, checkpoint: Checkpoint): Promise<unknown> {
    const runId = checkpoint.run.runId;
    if (
      !AwakenError.isInstance(error) ||
      error.code !== 'not_found' ||
      error.message !== `run ${runId} not found`
    )
      return error;
    const owner = await this.#locator.threadOf(runId);
    if (owner === undefined || owner === checkpoint.threadId) return error;
    const shard = await this.#ofThread(owner);
    let stored: (string | null)[];
    try {
      stored = await this.redis.hmget(threadRunKeys(shard.prefix).run(runId), 'threadId', 'fence');
    } catch (cause) {
      return toStoreError(cause);
    }
    if (stored[0] === null) return error;
    const fence = Number(stored[1] ?? 0);
    const given = checkpoint.fence ?? 0;
    if (fence !== given) {
      return new AwakenError(
        'stale_claim',
        `run ${runId}: the checkpoint carries fence ${given}, the run is at fence ${fence}`,
      );
    }
    return new AwakenError('conflict', `run ${runId} belongs to thread ${owner}`);
  }

  /** The run's locator entry, before its record (see `RunLocator.record`). */
  async #record(run: RunRecord, createsThread: boolean): Promise<void> {
    // a create that will find no thread writes no entry: an entry moves where the run id's event log
    // and inbox are read, and the run's script would refuse anyway (`not_found`, as one node answers)
    const target = await this.#ofThread(run.threadId);
    const home = await this.#ofThread(run.runId);
    // an event log or inbox written for the run id before any run record lives on the shard of the
    // run id's hash (`home`): looked for beside the thread check, moved once the entry names the thread
    const [exists, early] = await Promise.all([
      createsThread
        ? Promise.resolve(1)
        : this.redis.exists(threadRunKeys(target.prefix).thread(run.threadId)).catch((error: unknown) => {
            throw toStoreError(error);
          }),
      home === target ? Promise.resolve(false) : hasRunData(this.redis, home.prefix, run.runId),
    ]);
    if (exists === 0) throw new AwakenError('not_found', `thread ${run.threadId} not found`);
    await this.#reserve(run, createsThread);
    if (early) await moveEarlyRunKeys(this.redis, home.prefix, target.prefix, run.runId);
  }

  async #reserve(run: RunRecord, createsThread: boolean): Promise<void> {
    await this.#locator.record(
      run.runId,
      run.threadId,
      async (threadId) => {
        const shard = await this.#ofThread(threadId);
        const keys = threadRunKeys(shard.prefix);
        // the run exists on another thread, or its thread does and another process may be creating the
        // run there right now (it reserved the entry first): either way the entry holds. Left as stale:
        // only an entry whose run and thread are both gone (a deleted thread, a create that found no
        // thread). One process creating the run on a thread that createRunWithLease is creating at the
        // same moment (createThread) can still race another thread's create of the same run id.
        const [runs, threads] = await Promise.all([
          this.redis.exists(keys.run(run.runId)),
          this.redis.exists(keys.thread(threadId)),
        ]);
        if (runs === 0 && threads === 0) return false;
        // one node checks the new run's thread first
        const target = await this.#ofThread(run.threadId);
        if (
          !createsThread &&
          (await this.redis.exists(threadRunKeys(target.prefix).thread(run.threadId))) === 0
        )
          throw new AwakenError('not_found', `thread ${run.threadId} not found`);
        return true;
      },
      async (key, previous, next) => (await SWAP_RUN_LOCATOR.run(this.redis, [key], [previous, next])) === 1,
    );
  }

  async #mergeRuns(statuses: readonly RunStatus[], page: PageRequest): Promise<Page<RunRecord>> {
    const wanted = [...new Set(statuses)];
    const shards = await this.shards();
    return mergeIndexPages<RunRecord>({
      shards: shards.map((shard): IndexShard<RunRecord> => {
        const keys = threadRunKeys(shard.prefix);
        return {
          redis: this.redis,
          keys: wanted.map((status) => keys.runsWithStatus(status)),
          load: async (ids) =>
            (
              await pipelined<string | null>(this.redis, ids, (pipeline, id) =>
                pipeline.hget(keys.run(id), 'json'),
              )
            ).map((json) => (json === null ? undefined : decodeRun(json))),
        };
      }),
      reverse: true,
      cursor: page.cursor,
      limit: page.limit,
      // the index and the record are written in one script; a record read after a later move is
      // skipped, and so is an entry of the index of a status the run has left (listed once, at the
      // entry of its status, when two indexes read in one round saw it before and after a move)
      accept: (run, key) => run.status === wanted[key],
    });
  }

  /** The shard of a thread; shard 0 for a malformed id (it rejects it as one node would). */
  async #ofThread(threadId: unknown): Promise<RedisThreadRunStore> {
    const shards = await this.shards();
    const index = typeof threadId === 'string' ? threadShard(threadId, shards.length) : 0;
    return shards[index] as RedisThreadRunStore;
  }

  async #ofRun(runId: unknown): Promise<RedisThreadRunStore> {
    const shards = await this.shards();
    if (typeof runId !== 'string' || runId.length === 0) return shards[0] as RedisThreadRunStore;
    return shards[await this.#locator.shardOf(runId)] as RedisThreadRunStore;
  }

  /** The tenant's one seq counter (see the class comment): one INCRBY per write that takes seqs. */
  #sequence(): (count: number) => Promise<number> {
    const key = `${slotPrefix(this.prefix, `${this.prefix}tseq`)}seq`;
    return async (count) => {
      try {
        return (await this.redis.incrby(key, count)) - count + 1;
      } catch (error) {
        throw toStoreError(error);
      }
    };
  }
}

async function loadThreads(redis: Redis, prefix: string, ids: string[]): Promise<(Thread | undefined)[]> {
  const keys = threadRunKeys(prefix);
  const hashes = await pipelined<Record<string, string>>(redis, ids, (pipeline, id) =>
    pipeline.hgetall(keys.thread(id)),
  );
  return hashes.map((hash) => (Object.keys(hash).length === 0 ? undefined : decodeThread(hash)));
}

/** Creates a {@link ShardedRedisThreadRunStore}. */
export function createShardedRedisThreadRunStore(
  options: ShardedRedisThreadRunStoreOptions,
): ShardedRedisThreadRunStore {
  return new ShardedRedisThreadRunStore(options);
}
