import {
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
  type ThreadRunStore,
  type Visibility,
  acquireRunInputSchema,
  canTransitionRunStatus,
  fenceSchema,
  newMessageSchema,
  parseWith,
  runRecordSchema,
  runLeaseProofSchema,
  runStatusSchema,
} from '@awaken/contract';
import type { Redis } from 'ioredis';
import { pageIndex, pipelined } from './internal/page-index';
import { type RedisInput, closeRedis, normalizePrefix, resolveRedis } from './internal/redis-connection';
import { toStoreError } from './internal/redis-error';
import { decodeMessage, decodeRun, decodeThread } from './internal/thread-codec';
import { THREAD_SCRIPTS as S } from './internal/thread-lua/scripts';
import { uuidV7 } from './internal/uuid-v7';

export interface RedisThreadRunStoreOptions {
  /** An ioredis client (stays yours: `close()` leaves it open), client options or a `redis://` URL. */
  redis: RedisInput;
  /** Key prefix; default `awaken`. */
  prefix?: string;
}

/**
 * Threads, message logs, run records and checkpoints on Redis. Appends and checkpoints are single Lua
 * scripts: the fence, the expected message count and the run version are checked and the message
 * delta, run record, thread pointers and thread state are written in one atomic step, or nothing is
 * written. Run leases (`acquireRun`, `renewRun`, `releaseRun`) are scripts timed by Redis `TIME`, so
 * the clocks of the processes sharing the store never matter.
 */
export class RedisThreadRunStore implements ThreadRunStore {
  readonly redis: Redis;
  readonly prefix: string;
  readonly #owned: boolean;

  constructor(options: RedisThreadRunStoreOptions) {
    const { client, owned } = resolveRedis(options.redis);
    this.redis = client;
    this.#owned = owned;
    this.prefix = normalizePrefix(options.prefix);
  }

  async createThread(input: CreateThreadInput): Promise<Thread> {
    const reply = await this.#run(S.createThread, [
      input.id ?? uuidV7(),
      JSON.stringify(input.metadata ?? {}),
    ]);
    return decodeThread(reply as unknown[]);
  }

  async getThread(threadId: string): Promise<Thread | null> {
    const hash = await this.#call(() => this.redis.hgetall(this.#thread(threadId)));
    return Object.keys(hash).length === 0 ? null : decodeThread(hash);
  }

  listThreads(page: PageRequest = {}): Promise<Page<Thread>> {
    return pageIndex<Thread>({
      redis: this.redis,
      key: `${this.prefix}threads`,
      cursor: page.cursor,
      limit: page.limit,
      load: async (ids) => {
        const hashes = await pipelined<Record<string, string>>(this.redis, ids, (pipeline, id) =>
          pipeline.hgetall(this.#thread(id)),
        );
        return hashes.map((hash) => (Object.keys(hash).length === 0 ? undefined : decodeThread(hash)));
      },
    });
  }

  async deleteThread(threadId: string): Promise<boolean> {
    return Number(await this.#run(S.deleteThread, [threadId])) === 1;
  }

  async updateThreadMetadata(threadId: string, metadata: Record<string, unknown>): Promise<Thread> {
    const reply = await this.#run(S.updateMetadata, [threadId, JSON.stringify(metadata)]);
    return decodeThread(reply as unknown[]);
  }

  async getThreadState(threadId: string): Promise<Record<string, unknown>> {
    const state = await this.#call(() => this.redis.hget(this.#thread(threadId), 'state'));
    return state === null ? {} : (JSON.parse(state) as Record<string, unknown>);
  }

  async appendMessages(
    threadId: string,
    input: { expectedLength: number; messages: NewMessage[] },
  ): Promise<MessageRecord[]> {
    const bodies = input.messages.map(messageBody);
    const args = [threadId, JSON.stringify(threadId), input.expectedLength, ...bodies];
    const records = (await this.#run(S.appendMessages, args)) as string[];
    return records.map(decodeMessage);
  }

  async readMessages(
    threadId: string,
    range: { from?: number; to?: number; visibility?: Visibility } = {},
  ): Promise<MessageRecord[]> {
    const start = Math.max(1, range.from ?? 1) - 1;
    const stop = range.to === undefined ? -1 : range.to - 1;
    if (stop !== -1 && stop < start) return [];
    const entries = await this.#call(() => this.redis.lrange(`${this.prefix}thm:${threadId}`, start, stop));
    const records = entries.map(decodeMessage);
    return range.visibility ? records.filter((record) => record.visibility === range.visibility) : records;
  }

  messageCount(threadId: string): Promise<number> {
    return this.#call(() => this.redis.llen(`${this.prefix}thm:${threadId}`));
  }

  async createRun(record: RunRecord): Promise<RunRecord> {
    const run = parseWith(runRecordSchema, { ...record, version: 0 }, 'run record');
    await this.#run(S.createRun, [run.runId, run.threadId, JSON.stringify(run), run.status]);
    return run;
  }

  async getRun(runId: string): Promise<RunRecord | null> {
    const json = await this.#call(() => this.redis.hget(`${this.prefix}run:${runId}`, 'json'));
    return json === null ? null : decodeRun(json);
  }

  listRuns(threadId: string, query: PageRequest & { status?: RunStatus[] } = {}): Promise<Page<RunRecord>> {
    const wanted = query.status && query.status.length > 0 ? new Set(query.status) : undefined;
    return pageIndex<RunRecord>({
      redis: this.redis,
      key: `${this.prefix}thr:${threadId}`,
      reverse: true,
      cursor: query.cursor,
      limit: query.limit,
      load: async (ids) => {
        const jsons = await pipelined<string | null>(this.redis, ids, (pipeline, id) =>
          pipeline.hget(`${this.prefix}run:${id}`, 'json'),
        );
        return jsons.map((json) => (json === null ? undefined : decodeRun(json)));
      },
      accept: wanted ? (run) => wanted.has(run.status) : undefined,
    });
  }

  async commitCheckpoint(checkpoint: Checkpoint): Promise<RunRecord> {
    const run = parseWith(runRecordSchema, checkpoint.run, 'checkpoint run');
    const fence = parseWith(fenceSchema, checkpoint.fence ?? 0, 'checkpoint fence');
    const args = [
      checkpoint.threadId,
      JSON.stringify(checkpoint.threadId),
      checkpoint.expectedMessageCount,
      run.runId,
      JSON.stringify(run),
      run.version,
      run.status,
      RUN_STATUSES.filter((from) => canTransitionRunStatus(from, run.status)).join(' '),
      checkpoint.threadState === undefined ? '' : JSON.stringify(checkpoint.threadState),
      fence,
      ...checkpoint.messages.map(messageBody),
    ];
    await this.#run(S.commitCheckpoint, args);
    return run;
  }

  async acquireRun(runId: string, input: { owner: string; leaseMs: number }): Promise<RunLease> {
    const { owner, leaseMs } = parseWith(acquireRunInputSchema, input, 'acquireRun input');
    const reply = (await this.#run(S.acquireRun, [runId, owner, leaseMs])) as string[];
    if (reply[0] === 'busy') {
      const [, holder, until, now] = reply;
      throw new AwakenError('run_busy', `run ${runId} is held by ${holder} until ${until}`, {
        retryable: true,
        retryAfterMs: Number(until) - Number(now) + 1,
        details: { runId, owner: holder, leaseUntil: Number(until) },
      });
    }
    return { runId, owner, fence: Number(reply[1]), leaseUntil: Number(reply[2]) };
  }

  async renewRun(proof: RunLeaseProof & { leaseMs: number }): Promise<RunLease> {
    const lease = parseWith(runLeaseProofSchema, proof, 'renewRun proof');
    const { leaseMs } = parseWith(
      acquireRunInputSchema,
      { owner: lease.owner, leaseMs: proof.leaseMs },
      'renewRun input',
    );
    const until = await this.#run(S.renewRun, [lease.runId, lease.owner, lease.fence, leaseMs]);
    return { ...lease, leaseUntil: Number(until) };
  }

  async releaseRun(proof: RunLeaseProof): Promise<boolean> {
    const lease = parseWith(runLeaseProofSchema, proof, 'releaseRun proof');
    return Number(await this.#run(S.releaseRun, [lease.runId, lease.owner, lease.fence])) === 1;
  }

  /** Closes the connection if the store created it. */
  async close(): Promise<void> {
    if (this.#owned) await closeRedis(this.redis);
  }

  #thread(threadId: string): string {
    return `${this.prefix}th:${threadId}`;
  }

  #run(script: (typeof S)[keyof typeof S], args: readonly (string | number)[]): Promise<unknown> {
    return script.run(this.redis, [], [this.prefix, ...args]);
  }

  async #call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw toStoreError(error);
    }
  }
}

const RUN_STATUSES = runStatusSchema.options;

/** A message body for the log: validated, as a JSON object the script completes with seq and time. */
function messageBody(message: NewMessage): string {
  return JSON.stringify(parseWith(newMessageSchema, message, 'message'));
}

/** Creates a {@link RedisThreadRunStore}. */
export function createRedisThreadRunStore(options: RedisThreadRunStoreOptions): RedisThreadRunStore {
  return new RedisThreadRunStore(options);
}
