import { randomUUID } from 'node:crypto';
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
  parseWith,
  runDispatchResultSchema,
} from '@awaken/contract';
import type { Redis } from 'ioredis';
import { BlockingPool } from './internal/blocking-pool';
import { checkEnqueueInput } from './internal/dispatch-checks';
import { decodeDispatch, decodeDispatchList, decodeStoredDispatch } from './internal/dispatch-codec';
import { DISPATCH_REPLY_FIELDS } from './internal/dispatch-fields';
import { listThreadDispatches } from './internal/list-dispatches';
import { MAILBOX_SCRIPTS as S } from './internal/mailbox-lua/index';
import { toStoreError } from './internal/redis-error';
import { type RedisInput, closeRedis, normalizePrefix, resolveRedis } from './internal/redis-connection';
import { uuidV7 } from './internal/uuid-v7';
import { waitForMarker } from './internal/wait-for-marker';

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
}

const PURGE_BATCH = 500;

/**
 * The MailboxStore on Redis. Every operation is one Lua script, so it is atomic; lease
 * deadlines and timestamps come from Redis `TIME`; claim, reclaim and purge use sorted-set indexes
 * (never KEYS/SCAN). Claimant writes are fenced by claim token, lease and thread epoch.
 * Durability is Redis's: run it with `appendonly yes` (see README).
 */
export class RedisMailboxStore implements MailboxStore {
  readonly redis: Redis;
  readonly prefix: string;
  readonly #owned: boolean;
  readonly #keys: string[];
  /** Connections blocked in `waitForWork` (BLPOP), opened on first use. */
  readonly #pool: BlockingPool;
  /** Aborted by `close()`, so blocked `waitForWork` calls return `false` and free their connection. */
  readonly #closing = new AbortController();

  constructor(options: RedisMailboxStoreOptions) {
    const { client, owned } = resolveRedis(options.redis);
    this.redis = client;
    this.#owned = owned;
    this.prefix = normalizePrefix(options.prefix);
    this.#keys = options.testClock ? [`${this.prefix}clock`] : [];
    this.#pool = new BlockingPool(client);
  }

  async now(): Promise<number> {
    try {
      const frozen = this.#keys[0] === undefined ? null : await this.redis.get(this.#keys[0]);
      if (frozen !== null) return Number(frozen);
      const [seconds, micros] = await this.redis.time();
      return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    } catch (error) {
      throw toStoreError(error);
    }
  }

  async enqueue(input: EnqueueDispatchInput): Promise<RunDispatch> {
    const parsed = checkEnqueueInput(input);
    const dispatchId = parsed.dispatchId ?? uuidV7();
    const [epoch, now] = (await this.#run(S.enqueue, [
      dispatchId,
      parsed.threadId,
      parsed.runId,
      parsed.priority,
      parsed.dedupeKey ?? '',
      parsed.availableAt ?? '',
      parsed.maxAttempts,
    ])) as [string, string];
    const createdAt = Number(now);
    return {
      dispatchId,
      threadId: parsed.threadId,
      runId: parsed.runId,
      priority: parsed.priority,
      ...(parsed.dedupeKey === undefined ? {} : { dedupeKey: parsed.dedupeKey }),
      dispatchEpoch: Number(epoch),
      status: 'queued',
      availableAt: parsed.availableAt ?? createdAt,
      attemptCount: 0,
      maxAttempts: parsed.maxAttempts,
      createdAt,
      updatedAt: createdAt,
    };
  }

  async claim(input: { workerId: string; limit: number; leaseMs: number }): Promise<RunDispatch[]> {
    requirePositive('limit', input.limit);
    requirePositive('leaseMs', input.leaseMs);
    const reply = await this.#run(S.claim, [
      input.workerId,
      Math.floor(input.limit),
      Math.ceil(input.leaseMs),
      randomUUID(),
    ]);
    return decodeDispatchList(reply);
  }

  async claimDispatch(input: {
    dispatchId: string;
    workerId: string;
    leaseMs: number;
  }): Promise<RunDispatch | null> {
    requirePositive('leaseMs', input.leaseMs);
    const args = [input.dispatchId, input.workerId, Math.ceil(input.leaseMs), randomUUID()];
    const reply = await this.#run(S.claimDispatch, args);
    return reply ? decodeDispatch(reply) : null;
  }

  async ack(proof: ClaimProof): Promise<RunDispatch> {
    return decodeDispatch(await this.#run(S.ack, [proof.dispatchId, proof.claimToken]));
  }

  async nack(proof: ClaimProof & { error: string; retryAt?: number }): Promise<RunDispatch> {
    if (proof.retryAt !== undefined) requireMillis('retryAt', proof.retryAt);
    const args = [proof.dispatchId, proof.claimToken, proof.error, proof.retryAt ?? ''];
    return decodeDispatch(await this.#run(S.nack, args));
  }

  async deadLetter(proof: ClaimProof & { error: string }): Promise<RunDispatch> {
    return decodeDispatch(await this.#run(S.deadLetter, [proof.dispatchId, proof.claimToken, proof.error]));
  }

  async cancel(dispatchId: string): Promise<RunDispatch> {
    return decodeDispatch(await this.#run(S.cancel, [dispatchId]));
  }

  async extendLease(proof: ClaimProof & { leaseMs: number }): Promise<RunDispatch> {
    requirePositive('leaseMs', proof.leaseMs);
    const args = [proof.dispatchId, proof.claimToken, Math.ceil(proof.leaseMs)];
    return decodeDispatch(await this.#run(S.extendLease, args));
  }

  async interrupt(threadId: string): Promise<MailboxInterrupt> {
    const [epoch, count, active] = (await this.#run(S.interrupt, [threadId])) as [number, number, unknown];
    return {
      newDispatchEpoch: Number(epoch),
      supersededCount: Number(count),
      ...(active ? { activeDispatch: decodeDispatch(active) } : {}),
    };
  }

  async supersedeClaimed(dispatchId: string): Promise<RunDispatch> {
    return decodeDispatch(await this.#run(S.supersedeClaimed, [dispatchId]));
  }

  async recordDispatchStart(proof: ClaimProof & { dispatchInstanceId: string }): Promise<RunDispatch> {
    const args = [proof.dispatchId, proof.claimToken, proof.dispatchInstanceId];
    return decodeDispatch(await this.#run(S.recordDispatchStart, args));
  }

  async recordRunResult(proof: ClaimProof & { result: RunDispatchResult }): Promise<RunDispatch> {
    const result = parseWith(runDispatchResultSchema, proof.result, 'run result');
    const absent = '\0';
    const args = [
      proof.dispatchId,
      proof.claimToken,
      result.runId,
      'dispatchInstanceId',
      result.dispatchInstanceId,
      'runStatus',
      result.status,
      'termination',
      result.termination === undefined ? absent : JSON.stringify(result.termination),
      'runResponse',
      result.response ?? absent,
      'runError',
      result.error ?? absent,
    ];
    return decodeDispatch(await this.#run(S.recordRunResult, args));
  }

  async loadDispatch(dispatchId: string): Promise<RunDispatch | null> {
    try {
      return decodeStoredDispatch(
        await this.redis.hmget(`${this.prefix}d:${dispatchId}`, ...DISPATCH_REPLY_FIELDS),
      );
    } catch (error) {
      throw toStoreError(error);
    }
  }

  listDispatches(
    threadId: string,
    query: PageRequest & { status?: RunDispatchStatus[] } = {},
  ): Promise<Page<RunDispatch>> {
    return listThreadDispatches(this.redis, this.prefix, threadId, query);
  }

  async threadEpoch(threadId: string): Promise<number> {
    try {
      return Number((await this.redis.hget(`${this.prefix}t:${threadId}`, 'epoch')) ?? 0);
    } catch (error) {
      throw toStoreError(error);
    }
  }

  async reclaimExpiredLeases(input: { limit?: number } = {}): Promise<RunDispatch[]> {
    const limit = input.limit ?? 100;
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new AwakenError('validation_failed', `limit must be a positive integer, got ${limit}`);
    }
    return decodeDispatchList(await this.#run(S.reclaim, [limit]));
  }

  async purgeTerminal(input: { olderThan: number }): Promise<number> {
    if (!Number.isFinite(input.olderThan)) {
      throw new AwakenError('validation_failed', `olderThan must be a number, got ${input.olderThan}`);
    }
    let total = 0;
    for (;;) {
      const purged = Number(await this.#run(S.purge, [Math.floor(input.olderThan), PURGE_BATCH]));
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
  waitForWork(options: { timeoutMs: number; signal?: AbortSignal }): Promise<boolean> {
    return waitForMarker({
      pool: this.#pool,
      key: `${this.prefix}wake`,
      timeoutMs: options.timeoutMs,
      signal: options.signal ? AbortSignal.any([options.signal, this.#closing.signal]) : this.#closing.signal,
    });
  }

  /** Ends pending `waitForWork` calls, closes their connections, and the main one if the store created it. */
  async close(): Promise<void> {
    this.#closing.abort();
    await this.#pool.close();
    if (this.#owned) await closeRedis(this.redis);
  }

  #run(script: (typeof S)[keyof typeof S], args: readonly (string | number)[]): Promise<unknown> {
    return script.run(this.redis, this.#keys, [this.prefix, ...args]);
  }
}

function requirePositive(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) {
    throw new AwakenError('validation_failed', `${name} must be a positive number, got ${value}`);
  }
}

function requireMillis(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new AwakenError('validation_failed', `${name} must be a time in milliseconds, got ${value}`);
  }
}

/** Creates a {@link RedisMailboxStore}. */
export function createRedisMailboxStore(options: RedisMailboxStoreOptions): RedisMailboxStore {
  return new RedisMailboxStore(options);
}
