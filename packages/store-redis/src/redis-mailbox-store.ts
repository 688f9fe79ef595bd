import { randomUUID } from 'node:crypto';
import {
  type AwakenError,
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
  runDispatchStatusSchema,
} from '@awaken/contract';
import type { Redis } from 'ioredis';
import { Coalescer } from './internal/batching/coalescer';
import { type RedisInput, closeRedis } from './internal/connection/redis-connection';
import { toStoreError } from './internal/connection/redis-error';
import { type MailboxKeys, mailboxKeys } from './internal/keys/mailbox-keys';
import { uuidV7 } from './internal/keys/uuid-v7';
import { MAILBOX_SCRIPTS as S } from './internal/lua/mailbox/mailbox-scripts';
import { PEEK_CLAIMABLE } from './internal/lua/mailbox/peek-claimable';
import { type ScriptContext, openStore } from './internal/lua/script-context';
import { decodeDispatch, decodeDispatchList, decodeStoredDispatch } from './internal/mailbox/dispatch-codec';
import { listDispatchesWithStatus, listThreadDispatches } from './internal/mailbox/list-dispatches';
import { type ParsedEnqueue, enqueueArgs, resultArgs } from './internal/mailbox/mailbox-args';
import { BlockingPool } from './internal/wake-ups/blocking-pool';
import { waitForMarker } from './internal/wake-ups/wait-for-marker';
import type { ReplicaWait } from './internal/lua/replica-wait';

export interface RedisMailboxStoreOptions {
  /** An ioredis client (stays yours: `close()` leaves it open), client options or a `redis://` URL. */
  redis: RedisInput;
  /** Key prefix; default `awaken`. Stores with different prefixes never see each other's keys. */
  prefix?: string;
  /**
   * Tests only: when true, a millisecond value stored at the key `<prefix>clock` freezes the store
   * clock for this store's scripts and `now()` (absent key → Redis TIME). Lets a conformance harness
   * step time exactly; production stores leave it off and always use Redis TIME.
   */
  testClock?: boolean;
  /**
   * How long each mutating script's reply is kept for a request re-sent after a lost reply (ioredis
   * re-sends unanswered commands on reconnect); default two minutes, 0 turns it off. See the README.
   */
  requestTtlMs?: number;
  /**
   * Acknowledge a write only once this many replicas hold it (`WAIT` after each write; a write not
   * confirmed in time fails with `store_failure`). Off by default: Redis replication is asynchronous,
   * so a failover can lose a write its master acknowledged. See docs/guides/redis.md, "Failover".
   */
  waitForReplicas?: ReplicaWait;
  /**
   * Internal (the sharded mailbox): reserves `count` enqueue seqs and resolves with the first, so
   * every shard numbers its dispatches from one counter; default the store's own counter.
   */
  sequence?: (count: number) => Promise<number>;
}

const PURGE_BATCH = 500;
/** Most enqueues / acks combined into one script call. */
const MAX_BATCH = 64;

/** An ack input, parsed. */
type ParsedAck = ReturnType<typeof inputs.ack.parse>;

/** A dispatch id, its fields as stored (HGETALL reply), and what the script wrote after reading them. */
const ACKED = { status: 'acked', claimToken: undefined, leaseUntil: undefined } as const;

/**
 * The MailboxStore on Redis. Every operation is one Lua script, so it is atomic; lease
 * deadlines and timestamps come from Redis `TIME`; claim, reclaim and purge use sorted-set indexes
 * (never KEYS/SCAN). Claimant writes are fenced by claim token, lease and thread epoch. Inputs are
 * validated by the contract's schemas before any script runs; every script records its reply per
 * request, so a command re-sent after a lost reply returns the first reply instead of running twice.
 * Durability is Redis's: run it with `appendonly yes` (see README).
 */
export class RedisMailboxStore implements MailboxStore {
  readonly redis: Redis;
  readonly prefix: string;
  readonly #owned: boolean;
  readonly #key: MailboxKeys;
  readonly #scripts: ScriptContext;
  readonly #sequence: ((count: number) => Promise<number>) | undefined;
  /** Connections blocked in `waitForWork` (BLPOP), opened on first use. */
  readonly #pool: BlockingPool;
  /** Aborted by `close()`, so blocked `waitForWork` calls return `false` and free their connection. */
  readonly #closing = new AbortController();
  /** Enqueues and acks of one tick, each sent as one script call (see Coalescer). */
  readonly #enqueues = new Coalescer<ParsedEnqueue, RunDispatch>(
    (batch) => this.#enqueueBatch(batch),
    MAX_BATCH,
  );
  readonly #acks = new Coalescer<ParsedAck, RunDispatch>((batch) => this.#ackBatch(batch), MAX_BATCH);

  constructor(options: RedisMailboxStoreOptions) {
    const { client, owned, prefix, scripts } = openStore(options);
    this.redis = client;
    this.#owned = owned;
    this.prefix = prefix;
    this.#key = mailboxKeys(prefix);
    this.#scripts = scripts;
    this.#sequence = options.sequence;
    this.#pool = new BlockingPool(client, undefined, this.#key.wake);
  }

  async now(): Promise<number> {
    this.#sendQueued();
    try {
      const [clock] = this.#scripts.keys;
      const frozen = clock === undefined ? null : await this.redis.get(clock);
      if (frozen !== null) return Number(frozen);
      const [seconds, micros] = await this.redis.time();
      return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    } catch (error) {
      throw toStoreError(error);
    }
  }

  /** Enqueues made in the same tick share one script call; each is checked and answered on its own. */
  enqueue(input: EnqueueDispatchInput): Promise<RunDispatch> {
    try {
      const parsed = inputs.enqueue.parse(input);
      const givenId = parsed.dispatchId !== undefined;
      this.#acks.flush();
      return this.#enqueues.add({ ...parsed, dispatchId: parsed.dispatchId ?? uuidV7(), givenId });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Enqueues the dispatch and claims it for the caller when its thread has no claim, in one script
   * call (which wakes nobody for a dispatch it claimed); the start is recorded with an instance id.
   */
  async enqueueAndClaim(
    input: EnqueueDispatchInput & { workerId: string; leaseMs: number; dispatchInstanceId?: string },
  ): Promise<RunDispatch> {
    const { workerId, leaseMs, dispatchInstanceId, ...parsed } = inputs.enqueueAndClaim.parse(input);
    const dispatchId = parsed.dispatchId ?? uuidV7();
    const args = enqueueArgs({ ...parsed, dispatchId, givenId: parsed.dispatchId !== undefined });
    args.push(workerId, leaseMs, randomUUID(), dispatchInstanceId ?? '');
    if (this.#sequence) args.push(await this.#sequence(1));
    return decodeDispatch(dispatchId, await this.#run(S.enqueueAndClaim, args));
  }

  async #enqueueBatch(batch: ParsedEnqueue[]): Promise<(RunDispatch | AwakenError)[]> {
    const args: (string | number)[] = [];
    for (const item of batch) args.push(...enqueueArgs(item));
    if (this.#sequence) args.push(await this.#sequence(batch.length));
    const reply = (await this.#run(S.enqueue, args)) as string[];
    const createdAt = Number(reply[0]);
    return batch.map((item, index) => {
      const epoch = String(reply[index + 1]);
      if (epoch.startsWith('AWAKEN ')) return toStoreError(new Error(epoch));
      return {
        dispatchId: item.dispatchId,
        threadId: item.threadId,
        runId: item.runId,
        priority: item.priority,
        ...(item.dedupeKey === undefined ? {} : { dedupeKey: item.dedupeKey }),
        dispatchEpoch: Number(epoch),
        status: 'queued',
        availableAt: item.availableAt ?? createdAt,
        attemptCount: 0,
        maxAttempts: item.maxAttempts,
        createdAt,
        updatedAt: createdAt,
      };
    });
  }

  /**
   * Internal (the sharded mailbox): the scores of what `claim` would claim next, at most `limit`,
   * lowest first, claiming nothing (see `lua/mailbox/peek-claimable.ts`).
   */
  async peekClaimable(limit: number): Promise<number[]> {
    this.#sendQueued();
    try {
      const reply = (await PEEK_CLAIMABLE.run(this.redis, this.#scripts.keys, [
        this.prefix,
        limit,
      ])) as string[];
      return reply.map(Number);
    } catch (error) {
      throw toStoreError(error);
    }
  }

  async claim(input: { workerId: string; limit: number; leaseMs: number }): Promise<RunDispatch[]> {
    const { workerId, limit, leaseMs } = inputs.claim.parse(input);
    const tokenBase = randomUUID();
    const reply = (await this.#run(S.claim, [workerId, limit, leaseMs, tokenBase])) as unknown[];
    const now = Number(reply[0]);
    const claimed: RunDispatch[] = [];
    for (let index = 1; index < reply.length; index += 2) {
      claimed.push(
        decodeDispatch(String(reply[index]), reply[index + 1], {
          status: 'claimed',
          claimToken: `${tokenBase}:${claimed.length + 1}`,
          claimedBy: workerId,
          leaseUntil: now + leaseMs,
          updatedAt: now,
        }),
      );
    }
    return claimed;
  }

  async claimDispatch(input: {
    dispatchId: string;
    workerId: string;
    leaseMs: number;
  }): Promise<RunDispatch | null> {
    const { dispatchId, workerId, leaseMs } = inputs.claimDispatch.parse(input);
    const reply = await this.#run(S.claimDispatch, [dispatchId, workerId, leaseMs, randomUUID()]);
    return reply ? decodeDispatch(dispatchId, reply) : null;
  }

  /**
   * Acks made in the same tick share one script call; each is fenced and answered on its own. An ack
   * with a result records it in the same script call (one round trip instead of two).
   */
  ack(input: ClaimProof & { result?: RunDispatchResult }): Promise<RunDispatch> {
    try {
      const proof = inputs.ack.parse(input);
      this.#enqueues.flush();
      return this.#acks.add(proof);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async #ackBatch(batch: ParsedAck[]): Promise<(RunDispatch | AwakenError)[]> {
    const args: string[] = [];
    for (const proof of batch) {
      if (proof.result === undefined) args.push(proof.dispatchId, proof.claimToken, '0');
      else {
        const result = resultArgs(proof.result);
        args.push(proof.dispatchId, proof.claimToken, String(result.length), ...result);
      }
    }
    const reply = (await this.#run(S.ack, args)) as unknown[];
    const updatedAt = Number(reply[0]);
    return batch.map((proof, index) => {
      const fields = reply[index + 1];
      if (typeof fields === 'string') return toStoreError(new Error(fields));
      try {
        // with a result the script replies with the dispatch as stored after the ack
        if (proof.result !== undefined) return decodeDispatch(proof.dispatchId, fields);
        return decodeDispatch(proof.dispatchId, fields, { ...ACKED, updatedAt });
      } catch (error) {
        return toStoreError(error);
      }
    });
  }

  async nack(input: ClaimProof & { error: string; retryAt?: number }): Promise<RunDispatch> {
    const proof = inputs.nack.parse(input);
    return this.#claimantScript(S.nack, proof, proof.error, proof.retryAt ?? '');
  }

  async deadLetter(input: ClaimProof & { error: string }): Promise<RunDispatch> {
    const proof = inputs.deadLetter.parse(input);
    return this.#claimantScript(S.deadLetter, proof, proof.error);
  }

  async cancel(input: string): Promise<RunDispatch> {
    const { dispatchId } = inputs.cancel.parse({ dispatchId: input });
    return this.#dispatchScript(S.cancel, dispatchId);
  }

  async markRequeued(input: {
    dispatchId: string;
    runId: string;
    requeueDispatchId: string;
  }): Promise<RunDispatch> {
    const { dispatchId, runId, requeueDispatchId } = inputs.markRequeued.parse(input);
    return this.#dispatchScript(S.markRequeued, dispatchId, runId, requeueDispatchId);
  }

  async extendLease(input: ClaimProof & { leaseMs: number }): Promise<RunDispatch> {
    const proof = inputs.extendLease.parse(input);
    return this.#claimantScript(S.extendLease, proof, proof.leaseMs);
  }

  async interrupt(input: string): Promise<MailboxInterrupt> {
    const { threadId } = inputs.interrupt.parse({ threadId: input });
    const reply = (await this.#run(S.interrupt, [threadId])) as [number, number, unknown, unknown];
    const [epoch, count, active, activeId] = reply;
    return {
      newDispatchEpoch: Number(epoch),
      supersededCount: Number(count),
      ...(active ? { activeDispatch: decodeDispatch(String(activeId), active) } : {}),
    };
  }

  async supersedeClaimed(input: string): Promise<RunDispatch> {
    const { dispatchId } = inputs.supersedeClaimed.parse({ dispatchId: input });
    return this.#dispatchScript(S.supersedeClaimed, dispatchId);
  }

  async recordDispatchStart(input: ClaimProof & { dispatchInstanceId: string }): Promise<RunDispatch> {
    const proof = inputs.recordDispatchStart.parse(input);
    return this.#claimantScript(S.recordDispatchStart, proof, proof.dispatchInstanceId);
  }

  async recordRunResult(input: ClaimProof & { result: RunDispatchResult }): Promise<RunDispatch> {
    const { result, ...proof } = inputs.recordRunResult.parse(input);
    return this.#claimantScript(S.recordRunResult, proof, ...resultArgs(result));
  }

  async loadDispatch(input: string): Promise<RunDispatch | null> {
    const { dispatchId } = inputs.loadDispatch.parse({ dispatchId: input });
    this.#sendQueued();
    try {
      return decodeStoredDispatch(dispatchId, await this.redis.hgetall(this.#key.dispatch(dispatchId)));
    } catch (error) {
      throw toStoreError(error);
    }
  }

  async listDispatches(
    threadId: string,
    query?: PageRequest & { status?: RunDispatchStatus[] },
  ): Promise<Page<RunDispatch>> {
    const parsed = inputs.listDispatches.parse({ ...query, threadId });
    this.#sendQueued();
    return listThreadDispatches(this.redis, this.#key, parsed);
  }

  /** ZCARD of each status index, in one MULTI (one consistent reading): O(1) per status. */
  async countDispatches(): Promise<Record<RunDispatchStatus, number>> {
    inputs.countDispatches.parse({});
    this.#sendQueued();
    try {
      const statuses = runDispatchStatusSchema.options;
      const multi = this.redis.multi();
      for (const status of statuses) multi.zcard(this.#key.withStatus(status));
      const replies = (await multi.exec()) ?? [];
      const counts = Object.fromEntries(
        statuses.map((status, index) => {
          const [error, count] = replies[index] ?? [new Error('no reply')];
          if (error) throw error;
          return [status, Number(count)];
        }),
      );
      return counts as Record<RunDispatchStatus, number>;
    } catch (error) {
      throw toStoreError(error);
    }
  }

  async listDispatchesByStatus(status: RunDispatchStatus, query?: PageRequest): Promise<Page<RunDispatch>> {
    const parsed = inputs.listDispatchesByStatus.parse({ ...query, status });
    this.#sendQueued();
    return listDispatchesWithStatus(this.redis, this.#key, parsed);
  }

  async threadEpoch(input: string): Promise<number> {
    const { threadId } = inputs.threadEpoch.parse({ threadId: input });
    this.#sendQueued();
    try {
      return Number((await this.redis.hget(this.#key.threadState, `e:${threadId}`)) ?? 0);
    } catch (error) {
      throw toStoreError(error);
    }
  }

  async reclaimExpiredLeases(input?: { limit?: number }): Promise<RunDispatch[]> {
    const { limit } = inputs.reclaimExpiredLeases.parse({ limit: input?.limit });
    return decodeDispatchList(await this.#run(S.reclaim, [limit]));
  }

  async purgeTerminal(input: { olderThan: number; status?: RunDispatchStatus[] }): Promise<number> {
    const { olderThan, status } = inputs.purgeTerminal.parse(input);
    let total = 0;
    if (status !== undefined) {
      // walk the status indexes named, in enqueue order: cost in proportion to their dispatches
      let left = [...new Set(status)].map((each) => ({ status: each, after: '-inf' }));
      while (left.length > 0) {
        const args = left.flatMap((each) => [each.status, each.after]);
        const reply = (await this.#run(S.purgeStatus, [olderThan, PURGE_BATCH, ...args])) as unknown[];
        total += Number(reply[0]);
        left = left
          .map((each, index) => ({ status: each.status, after: String(reply[index + 1]) }))
          .filter((each) => each.after !== '');
      }
      return total;
    }
    for (;;) {
      const purged = Number(await this.#run(S.purge, [olderThan, PURGE_BATCH]));
      total += purged;
      if (purged < PURGE_BATCH) return total;
    }
  }

  /**
   * BLPOP on the `wake` marker list on a dedicated pooled connection (one per concurrent call): the
   * scripts that make a dispatch claimable push a marker, so a marker pushed before the BLPOP arrives
   * is not lost. An abort (or `close()`) resolves `false` at once and unblocks the connection with
   * CLIENT UNBLOCK; a marker popped after the abort is pushed back for the next waiter.
   */
  async waitForWork(options: { timeoutMs: number; signal?: AbortSignal }): Promise<boolean> {
    const { timeoutMs, signal } = inputs.waitForWork.parse(options);
    return waitForMarker({
      pool: this.#pool,
      key: this.#key.wake,
      timeoutMs,
      signal: signal ? AbortSignal.any([signal, this.#closing.signal]) : this.#closing.signal,
    });
  }

  /** Ends pending `waitForWork` calls, closes their connections, and the main one if the store created it. */
  async close(): Promise<void> {
    this.#closing.abort();
    await this.#pool.close();
    if (this.#owned) await closeRedis(this.redis);
  }

  /**
   * Sends the enqueues or acks queued in this tick (at most one of the two queues holds any: each
   * sends the other's before queueing), so the command about to be sent never overtakes them: calls
   * take effect in call order, as the memory store's do.
   */
  #sendQueued(): void {
    this.#enqueues.flush();
    this.#acks.flush();
  }

  #run(script: (typeof S)[keyof typeof S], args: readonly (string | number)[]): Promise<unknown> {
    this.#sendQueued();
    return script.call(this.#scripts, args);
  }

  /** Runs a script about one dispatch (ARGV after the prefix: its id, then `args`); decodes its reply. */
  async #dispatchScript(
    script: (typeof S)[keyof typeof S],
    dispatchId: string,
    ...args: (string | number)[]
  ): Promise<RunDispatch> {
    return decodeDispatch(dispatchId, await this.#run(script, [dispatchId, ...args]));
  }

  /** A claimant's fenced script: the dispatch id and claim token of `proof`, then `args`. */
  #claimantScript(
    script: (typeof S)[keyof typeof S],
    proof: ClaimProof,
    ...args: (string | number)[]
  ): Promise<RunDispatch> {
    return this.#dispatchScript(script, proof.dispatchId, proof.claimToken, ...args);
  }
}

/** Creates a {@link RedisMailboxStore}. */
export function createRedisMailboxStore(options: RedisMailboxStoreOptions): RedisMailboxStore {
  return new RedisMailboxStore(options);
}
