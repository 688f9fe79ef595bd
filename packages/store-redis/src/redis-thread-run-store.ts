import {
  type AcquireWithFence,
  type AcquiredWithFence,
  type JointAcquireStore,
  type BranchListRequest,
  type CreateBranchInput,
  type ThreadBranching,
  AwakenError,
  type Checkpoint,
  type CreateThreadInput,
  type MessageRecord,
  type NewMessage,
  type Page,
  type PageRequest,
  type RunLease,
  type RunLeaseProof,
  type RunRecord,
  type RunStatus,
  type Thread,
  type ThreadListRequest,
  type ThreadRunStore,
  type Visibility,
  type CheckpointWithEvents,
  type CreateRunWithLeaseInput,
  type CreatedRunWithLease,
  type RunCreationWithLease,
  type RunEventLog,
  offerTrustedView,
  runStatusSchema,
  runEventLogInputs,
  threadRunStoreInputs,
  trustedStoreInputs,
} from '@awaken/contract';
import type { Redis } from 'ioredis';
import { ReadBatch } from './internal/batching/read-batch';
import { type RedisInput, closeRedis } from './internal/connection/redis-connection';
import { runKeys } from './internal/keys/run-keys';
import { type ThreadRunKeys, threadRunKeys } from './internal/keys/thread-run-keys';
import { uuidV7 } from './internal/keys/uuid-v7';
import { type ScriptContext, openStore } from './internal/lua/script-context';
import { THREAD_SCRIPTS as S } from './internal/lua/threads/thread-scripts';
import { CREATE_BRANCH_OF } from './internal/lua/threads/create-branch-of';
import type { MutatingScript } from './internal/lua/idempotent-script';
import { pageIndex, pipelined } from './internal/paging/page-index';
import { pageIndexes } from './internal/paging/page-indexes';
import { RedisCheckpointWithEvents } from './internal/thread-runs/redis-checkpoint-with-events';
import { checkpointArgs, titleArg } from './internal/thread-runs/script-args';
import { decodeMessage, decodeRun, decodeThread } from './internal/thread-runs/thread-codec';
import { RedisRunEventLog } from './redis-run-event-log';
import type { ReplicaWait } from './internal/lua/replica-wait';

export interface RedisThreadRunStoreOptions {
  /** An ioredis client (stays yours: `close()` leaves it open), client options or a `redis://` URL. */
  redis: RedisInput;
  /** Key prefix; default `awaken`. */
  prefix?: string;
  /**
   * Tests only: when true, a millisecond value stored at `<prefix>clock` freezes the clock of this
   * store's scripts (timestamps of threads and messages); absent key → Redis TIME.
   */
  testClock?: boolean;
  /** How long each write's reply is kept for a request re-sent after a lost reply; default two minutes, 0 = off. */
  requestTtlMs?: number;
  /**
   * Acknowledge a write only once this many replicas hold it (`WAIT` after each write; a write not
   * confirmed in time fails with `store_failure`). Off by default: Redis replication is asynchronous,
   * so a failover can lose a write its master acknowledged. See docs/guides/redis.md, "Failover".
   */
  waitForReplicas?: ReplicaWait;
  /**
   * Internal (the sharded store on a Redis Cluster): reserves `count` seqs of the tenant's one
   * counter and resolves with the first, so the indexes of every shard share one score space.
   */
  sequence?: (count: number) => Promise<number>;
  /** Internal (the sharded store): the store holding a thread (a branch's source may be on another shard). */
  shardOf?: (threadId: string) => RedisThreadRunStore;
}

/** The most seqs one script takes (`createRunWithLease`: the thread, the run, the touch). */
const SEQS_PER_WRITE = 3;

/** The runtime's trusted input path: no parse, no copy (every value is serialized right away). */
const trustedInputs = trustedStoreInputs(threadRunStoreInputs);
/** The event log's trusted inputs, for the trusted view's joint writes. */
const trustedEventInputs = trustedStoreInputs(runEventLogInputs);

/**
 * Threads, message logs, run records and checkpoints on Redis. Inputs are validated (and must be JSON)
 * by the contract's schemas before any script runs. Appends and checkpoints are single Lua scripts:
 * the fence, the run version, the expected message count and the status move are checked and the
 * message delta (of any size: pushed in chunks), run record, thread pointers and thread state are
 * written in one atomic step, or nothing is written. Run leases (`acquireRun`, `renewRun`,
 * `releaseRun`) are scripts timed by Redis `TIME`, so the clocks of the processes sharing the store
 * never matter. Every write records its reply per request, so a command re-sent after a lost reply
 * returns the first reply instead of running twice. The store offers the contract's trusted view
 * (`trustedViewOf`): the same store on the same connection, for the runtime's own calls, whose
 * runtime-built inputs skip the parse (see `trustedStoreInputs`). It offers `ThreadBranching`: a
 * branch is a thread hash pointing at its source (`branchSource`, `branchSeq`), its own list holding
 * the messages after the prefix; reads follow the pointer (see `#readLog`).
 */
export class RedisThreadRunStore
  implements ThreadRunStore, RunCreationWithLease, ThreadBranching, JointAcquireStore
{
  readonly redis: Redis;
  readonly prefix: string;
  readonly #key: ThreadRunKeys;
  readonly #owned: boolean;
  readonly #scripts: ScriptContext;
  readonly #inputs: typeof threadRunStoreInputs;
  /** Single reads of one tick, sent as one pipeline (flushed before every other command). */
  readonly #reads: ReadBatch;
  readonly #sequence: ((count: number) => Promise<number>) | undefined;
  readonly #shardOf: (threadId: string) => RedisThreadRunStore;

  /** `trustedTwinOf` is internal: the store's trusted view is built so, sharing its connection. */
  constructor(options: RedisThreadRunStoreOptions, trustedTwinOf?: RedisThreadRunStore) {
    if (trustedTwinOf !== undefined) {
      this.redis = trustedTwinOf.redis;
      this.#owned = false;
      this.prefix = trustedTwinOf.prefix;
      this.#key = trustedTwinOf.#key;
      this.#scripts = trustedTwinOf.#scripts;
      this.#reads = trustedTwinOf.#reads;
      this.#sequence = trustedTwinOf.#sequence;
      this.#shardOf = trustedTwinOf.#shardOf;
      this.#inputs = trustedInputs;
      return;
    }
    this.#inputs = threadRunStoreInputs;
    const { client, owned, prefix, scripts } = openStore(options);
    this.redis = client;
    this.#owned = owned;
    this.prefix = prefix;
    this.#key = threadRunKeys(prefix);
    this.#reads = new ReadBatch(client);
    this.#scripts = scripts;
    this.#sequence = options.sequence;
    this.#shardOf = options.shardOf ?? (() => this);
    offerTrustedView(this, new RedisThreadRunStore(options, this));
  }

  async createThread(input: CreateThreadInput): Promise<Thread> {
    const parsed = this.#inputs.createThread.parse(input);
    const reply = await this.#run(S.createThread, [
      parsed.id ?? uuidV7(),
      JSON.stringify(parsed.metadata ?? {}),
    ]);
    return decodeThread(reply as unknown[]);
  }

  async getThread(input: string): Promise<Thread | null> {
    const { threadId } = this.#inputs.getThread.parse({ threadId: input });
    const hash = await this.#reads.read<Record<string, string>>(['hgetall', this.#key.thread(threadId)]);
    return Object.keys(hash).length === 0 ? null : decodeThread(hash);
  }

  async listThreads(page?: ThreadListRequest): Promise<Page<Thread>> {
    const parsed = this.#inputs.listThreads.parse(page ?? {});
    this.#reads.flush();
    const newest = parsed.order === 'newest';
    return pageIndex<Thread>({
      redis: this.redis,
      // the newest order reads the index every write moves (`threads:written`), in reverse
      key: newest ? this.#key.threadsWritten : this.#key.threads,
      reverse: newest,
      cursor: parsed.cursor,
      limit: parsed.limit,
      load: async (ids) => {
        const hashes = await pipelined<Record<string, string>>(this.redis, ids, (pipeline, id) =>
          pipeline.hgetall(this.#key.thread(id)),
        );
        return hashes.map((hash) => (Object.keys(hash).length === 0 ? undefined : decodeThread(hash)));
      },
    });
  }

  async deleteThread(input: string): Promise<boolean> {
    const { threadId } = this.#inputs.deleteThread.parse({ threadId: input });
    return Number(await this.#run(S.deleteThread, [threadId])) === 1;
  }

  async updateThreadMetadata(threadId: string, metadata: Record<string, unknown>): Promise<Thread> {
    const parsed = this.#inputs.updateThreadMetadata.parse({ threadId, metadata });
    const reply = await this.#run(S.updateMetadata, [parsed.threadId, JSON.stringify(parsed.metadata)]);
    return decodeThread(reply as unknown[]);
  }

  async getThreadState(input: string): Promise<Record<string, unknown>> {
    const { threadId } = this.#inputs.getThreadState.parse({ threadId: input });
    const state = await this.#reads.read<string | null>(['hget', this.#key.thread(threadId), 'state']);
    return state === null ? {} : (JSON.parse(state) as Record<string, unknown>);
  }

  async appendMessages(
    threadId: string,
    input: { expectedLength: number; messages: NewMessage[] },
  ): Promise<MessageRecord[]> {
    const parsed = this.#inputs.appendMessages.parse({
      threadId,
      expectedLength: input?.expectedLength,
      messages: input?.messages,
    });
    const args = [
      parsed.threadId,
      JSON.stringify(parsed.threadId),
      parsed.expectedLength,
      titleArg(parsed.messages),
      ...parsed.messages.map((message) => JSON.stringify(message)),
    ];
    const [before, now] = (await this.#run(S.appendMessages, args)) as [number, string];
    const createdAt = Number(now);
    return parsed.messages.map((message, index) => ({
      threadId: parsed.threadId,
      seq: Number(before) + index + 1,
      createdAt,
      ...message,
    }));
  }

  async readMessages(
    threadId: string,
    range?: { from?: number; to?: number; visibility?: Visibility },
  ): Promise<MessageRecord[]> {
    const parsed = this.#inputs.readMessages.parse({
      threadId,
      from: range?.from,
      to: range?.to,
      visibility: range?.visibility,
    });
    // Inclusive bounds clipped to the log; `to < from` (also `to: 0`) is empty.
    const from = Math.max(1, parsed.from ?? 1);
    if (parsed.to !== undefined && parsed.to < from) return [];
    const records = (await this.#readLog(parsed.threadId, from, parsed.to)).map(decodeMessage);
    const { visibility } = parsed;
    return visibility ? records.filter((record) => record.visibility === visibility) : records;
  }

  async messageCount(input: string): Promise<number> {
    const { threadId } = this.#inputs.messageCount.parse({ threadId: input });
    const [base, own] = await Promise.all([
      this.#reads.read<string | null>(['hget', this.#key.thread(threadId), 'branchSeq']),
      this.#reads.read<number>(['llen', this.#key.messages(threadId)]),
    ]);
    return Number(base ?? 0) + Number(own);
  }

  /**
   * The entries of a thread's log from `from` (>= 1) to `to` (inclusive; the end when undefined). The
   * thread's branch pointer and its own log are read in one round trip, the log as if the thread were
   * not a branch; a branch (rare) is then read again: its prefix from its source (recursively), the
   * rest from its own log, whose first entry is seq `branchSeq + 1`.
   */
  async #readLog(threadId: string, from: number, to: number | undefined): Promise<string[]> {
    const thread = this.#key.thread(threadId);
    const [source, seq, plain] = await Promise.all([
      this.#reads.read<string | null>(['hget', thread, 'branchSource']),
      this.#reads.read<string | null>(['hget', thread, 'branchSeq']),
      this.#reads.read<string[]>([
        'lrange',
        this.#key.messages(threadId),
        from - 1,
        to === undefined ? -1 : to - 1,
      ]),
    ]);
    if (source === null) return plain;
    const base = Number(seq ?? 0);
    const prefix =
      from <= base ? await this.#shardOf(source).#readLog(source, from, Math.min(to ?? base, base)) : [];
    const start = Math.max(from, base + 1) - base - 1;
    const stop = to === undefined ? -1 : to - base - 1;
    if (to !== undefined && stop < start) return prefix;
    const own = await this.#reads.read<string[]>(['lrange', this.#key.messages(threadId), start, stop]);
    return prefix.length === 0 ? own : [...prefix, ...own];
  }

  /** A branch of `threadId` at `atSeq`: one hash pointing at the source, whatever its length. */
  async createBranch(input: CreateBranchInput): Promise<Thread> {
    const parsed = this.#inputs.createBranch.parse(input);
    const reply = await this.#run(S.createBranch, [
      parsed.threadId,
      parsed.id ?? uuidV7(),
      parsed.atSeq,
      JSON.stringify(parsed.metadata ?? {}),
    ]);
    return decodeThread(reply as unknown[]);
  }

  async listBranches(threadId: string, query?: BranchListRequest): Promise<Page<Thread>> {
    const parsed = this.#inputs.listBranches.parse({ ...query, threadId });
    this.#reads.flush();
    const { atSeq } = parsed;
    return pageIndex<Thread>({
      redis: this.redis,
      key: this.#key.threadBranches(parsed.threadId),
      cursor: parsed.cursor,
      limit: parsed.limit,
      load: async (ids) => {
        if (ids.some((id) => this.#shardOf(id) !== this)) {
          // on a cluster a branch may live on another shard than its source
          return (await Promise.all(ids.map((id) => this.#shardOf(id).getThread(id)))).map(
            (thread) => thread ?? undefined,
          );
        }
        const hashes = await pipelined<Record<string, string>>(this.redis, ids, (pipeline, id) =>
          pipeline.hgetall(this.#key.thread(id)),
        );
        return hashes.map((hash) => (Object.keys(hash).length === 0 ? undefined : decodeThread(hash)));
      },
      ...(atSeq === undefined ? {} : { accept: (thread: Thread) => thread.branchOf?.seq === atSeq }),
    });
  }

  async createRun(record: RunRecord): Promise<RunRecord> {
    const run = this.#inputs.createRun.parse(record);
    await this.#run(S.createRun, [run.runId, run.threadId, JSON.stringify(run), run.status]);
    return run;
  }

  /** `createRun` and `acquireRun` (and `createThread` when asked) in one script: see the contract. */
  async createRunWithLease(record: RunRecord, input: CreateRunWithLeaseInput): Promise<CreatedRunWithLease> {
    const { run, owner, leaseMs, createThread } = this.#inputs.createRunWithLease.parse({
      run: record,
      owner: input?.owner,
      leaseMs: input?.leaseMs,
      createThread: input?.createThread,
    });
    const [created, until] = (await this.#run(S.createRunWithLease, [
      run.runId,
      run.threadId,
      JSON.stringify(run),
      run.status,
      owner,
      leaseMs,
      createThread ? '1' : '0',
    ])) as [number, string];
    return {
      run,
      lease: { runId: run.runId, owner, fence: 1, leaseUntil: Number(until) },
      threadCreated: Number(created) === 1,
    };
  }

  async getRun(input: string): Promise<RunRecord | null> {
    const { runId } = this.#inputs.getRun.parse({ runId: input });
    const json = await this.#reads.read<string | null>(['hget', this.#key.run(runId), 'json']);
    return json === null ? null : decodeRun(json);
  }

  async listRuns(threadId: string, query?: PageRequest & { status?: RunStatus[] }): Promise<Page<RunRecord>> {
    const parsed = this.#inputs.listRuns.parse({ ...query, threadId });
    const wanted = parsed.status === undefined ? undefined : new Set(parsed.status);
    // through the read batch: a listing started beside other reads shares their round trip
    return this.#pageRuns(this.#key.threadRuns(parsed.threadId), parsed, {
      batched: true,
      accept: wanted ? (run) => wanted.has(run.status) : undefined,
    });
  }

  async listRunsByStatus(status: RunStatus, query?: PageRequest): Promise<Page<RunRecord>> {
    const parsed = this.#inputs.listRunsByStatus.parse({ ...query, status });
    return this.#pageRuns(this.#key.runsWithStatus(parsed.status), parsed, {
      batched: false,
      // the index and the record are written in one script; a record read after a later move is skipped
      accept: (run) => run.status === parsed.status,
    });
  }

  /** The union of the status indexes asked for (all four by default), merged by creation seq. */
  async listAllRuns(query?: PageRequest & { status?: RunStatus[] }): Promise<Page<RunRecord>> {
    const { status, ...page } = this.#inputs.listAllRuns.parse({ ...query });
    const wanted = new Set(status ?? runStatusSchema.options);
    this.#reads.flush();
    return pageIndexes<RunRecord>({
      redis: this.redis,
      keys: [...wanted].map((each) => this.#key.runsWithStatus(each)),
      ...page,
      load: async (ids) =>
        (
          await pipelined<string | null>(this.redis, ids, (pipeline, id) =>
            pipeline.hget(this.#key.run(id), 'json'),
          )
        ).map((json) => (json === null ? undefined : decodeRun(json))),
      accept: (run) => wanted.has(run.status),
    });
  }

  async commitCheckpoint(input: Checkpoint): Promise<RunRecord> {
    const checkpoint = this.#inputs.commitCheckpoint.parse(input);
    await this.#run(S.commitCheckpoint, checkpointArgs(checkpoint));
    return checkpoint.run;
  }

  /**
   * The joint writer (one script call: append, then checkpoint) for an event log in this store's
   * database and key space — a `RedisRunEventLog` on the same connection and prefix; undefined for
   * any other log. The trusted view's writer takes the trusted path for both inputs.
   */
  checkpointWithEvents(log: RunEventLog): CheckpointWithEvents | undefined {
    if (!(log instanceof RedisRunEventLog) || log.redis !== this.redis || log.prefix !== this.prefix)
      return undefined;
    const trusted = this.#inputs !== threadRunStoreInputs;
    return new RedisCheckpointWithEvents(
      this.#scripts,
      log,
      {
        checkpoint: this.#inputs.commitCheckpoint,
        append: trusted ? trustedEventInputs.append : runEventLogInputs.append,
      },
      // like every write of this store: the single reads queued before it leave first
      () => this.#reads.flush(),
      () => this.#seqFrom(),
    );
  }

  async acquireRun(input: string, request: { owner: string; leaseMs: number }): Promise<RunLease> {
    const { runId, owner, leaseMs } = this.#inputs.acquireRun.parse({
      runId: input,
      owner: request?.owner,
      leaseMs: request?.leaseMs,
    });
    const reply = (await this.#run(S.acquireRun, [runId, owner, leaseMs])) as string[];
    if (reply[0] === 'busy') throw runBusy(runId, reply);
    return { runId, owner, fence: Number(reply[1]), leaseUntil: Number(reply[2]) };
  }

  /**
   * The joint acquisition (one script: lease, log fence, run record; see AcquireWithFence in the
   * contract) for an event log on this store's connection and prefix; undefined for any other log.
   */
  acquireWithFence(log: RunEventLog): AcquireWithFence | undefined {
    if (!(log instanceof RedisRunEventLog) || log.redis !== this.redis || log.prefix !== this.prefix)
      return undefined;
    return { acquireRunWithFence: (runId, request) => this.#acquireWithFence(runId, request) };
  }

  async #acquireWithFence(
    input: string,
    request: { owner: string; leaseMs: number },
  ): Promise<AcquiredWithFence> {
    const { runId, owner, leaseMs } = this.#inputs.acquireRun.parse({
      runId: input,
      owner: request?.owner,
      leaseMs: request?.leaseMs,
    });
    const log = runKeys(this.prefix, runId);
    const reply = (await this.#run(S.acquireWithFence, [
      runId,
      owner,
      leaseMs,
      log.events,
      log.eventMeta,
    ])) as string[];
    if (reply[0] === 'busy') throw runBusy(runId, reply);
    return {
      lease: { runId, owner, fence: Number(reply[1]), leaseUntil: Number(reply[2]) },
      lastSeq: Number(reply[3]),
      run: decodeRun(String(reply[4])),
    };
  }

  async renewRun(input: RunLeaseProof & { leaseMs: number }): Promise<RunLease> {
    const { leaseMs, ...lease } = this.#inputs.renewRun.parse(input);
    const until = await this.#run(S.renewRun, [lease.runId, lease.owner, lease.fence, leaseMs]);
    return { ...lease, leaseUntil: Number(until) };
  }

  async releaseRun(input: RunLeaseProof): Promise<boolean> {
    const lease = this.#inputs.releaseRun.parse(input);
    return Number(await this.#run(S.releaseRun, [lease.runId, lease.owner, lease.fence])) === 1;
  }

  /** Closes the connection if the store created it. */
  async close(): Promise<void> {
    if (this.#owned) await closeRedis(this.redis);
  }

  /**
   * A page of a run index, newest first. `batched`: the index and the records are read through the
   * read batch; otherwise the queued single reads leave first and the records come in one pipeline.
   */
  #pageRuns(
    key: string,
    page: PageRequest,
    how: { batched: boolean; accept: ((run: RunRecord) => boolean) | undefined },
  ): Promise<Page<RunRecord>> {
    if (!how.batched) this.#reads.flush();
    const jsonsOf = how.batched
      ? (ids: string[]) =>
          Promise.all(ids.map((id) => this.#reads.read<string | null>(['hget', this.#key.run(id), 'json'])))
      : (ids: string[]) =>
          pipelined<string | null>(this.redis, ids, (pipeline, id) =>
            pipeline.hget(this.#key.run(id), 'json'),
          );
    return pageIndex<RunRecord>({
      redis: this.redis,
      key,
      reverse: true,
      cursor: page.cursor,
      limit: page.limit,
      range: how.batched ? (read) => this.#reads.read<string[]>(read) : undefined,
      load: async (ids) => (await jsonsOf(ids)).map((json) => (json === null ? undefined : decodeRun(json))),
      accept: how.accept,
    });
  }

  /**
   * Internal (the sharded store): the branch half of a branch whose source is on another shard (see
   * `lua/threads/create-branch-of.ts`); resolves with the branch and the seq it was listed under.
   */
  async createBranchOf(input: {
    branchId: string;
    sourceId: string;
    atSeq: number;
    metadata: string;
    title: string;
  }): Promise<{ thread: Thread; seq: number }> {
    const reply = (await this.#run(CREATE_BRANCH_OF, [
      input.branchId,
      input.sourceId,
      input.atSeq,
      input.metadata,
      input.title,
    ])) as string[];
    const seq = Number(reply.at(-1));
    return { thread: decodeThread(reply.slice(0, -2)), seq };
  }

  /** The first seq of a write's reservation (ARGV[2] of every thread script; '' = the slot's own counter). */
  #seqFrom(): string | Promise<string> {
    return this.#sequence ? this.#sequence(SEQS_PER_WRITE).then(String) : '';
  }

  #run(script: MutatingScript, args: readonly (string | number)[]): Promise<unknown> {
    this.#reads.flush();
    const from = this.#sequence && SEQUENCED.has(script) ? this.#seqFrom() : '';
    if (typeof from === 'string') return script.call(this.#scripts, [from, ...args]);
    return from.then((seq) => script.call(this.#scripts, [seq, ...args]));
  }
}

/** `run_busy` from a lease script's {'busy', owner, leaseUntil, now} reply. */
function runBusy(runId: string, reply: readonly string[]): AwakenError {
  const [, holder, until, now] = reply;
  return new AwakenError('run_busy', `run ${runId} is held by ${holder} until ${until}`, {
    retryable: true,
    retryAfterMs: Number(until) - Number(now) + 1,
    details: { runId, owner: holder, leaseUntil: Number(until) },
  });
}

/** The scripts that take seqs (the others ignore ARGV[2]). */
const SEQUENCED: ReadonlySet<MutatingScript> = new Set([
  S.createThread,
  S.createBranch,
  S.createRun,
  S.createRunWithLease,
  S.appendMessages,
  S.commitCheckpoint,
  S.updateMetadata,
  CREATE_BRANCH_OF,
]);

/** Creates a {@link RedisThreadRunStore}. */
export function createRedisThreadRunStore(options: RedisThreadRunStoreOptions): RedisThreadRunStore {
  return new RedisThreadRunStore(options);
}
