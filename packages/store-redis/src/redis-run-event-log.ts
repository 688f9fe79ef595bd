import {
  type AgentEvent,
  DEFAULT_FINISHED_LOG_TTL_MS,
  type FencedWrite,
  type RunEventLog,
  agentEventSchema,
  offerTrustedView,
  parseWith,
  runEventLogInputs,
  trustedStoreInputs,
} from '@awaken/contract';
import type { Redis } from 'ioredis';
import { type RedisInput, closeRedis } from './internal/connection/redis-connection';
import { toStoreError } from './internal/connection/redis-error';
import { inboxKeys, runKeys } from './internal/keys/run-keys';
import { APPEND_EVENTS } from './internal/lua/events/append-events';
import { FINISH_LOG } from './internal/lua/events/finish-log';
import { RAISE_FENCE } from './internal/lua/events/raise-fence';
import { type ScriptContext, openStore, routeKey } from './internal/lua/script-context';
import { appendArgs } from './internal/thread-runs/script-args';
import { StreamWaiter } from './internal/wake-ups/stream-waiter';
import type { ReplicaWait } from './internal/lua/replica-wait';

export interface RedisRunEventLogOptions {
  /** An ioredis client (stays yours: `close()` leaves it open), client options or a `redis://` URL. */
  redis: RedisInput;
  /** Key prefix; default `awaken`. */
  prefix?: string;
  /** How long a finished log is kept, unless `finish` says otherwise; default one hour. */
  finishedTtlMs?: number;
  /** How long each write's reply is kept for a request re-sent after a lost reply; default two minutes, 0 = off. */
  requestTtlMs?: number;
  /**
   * Acknowledge a write only once this many replicas hold it (`WAIT` after each write; a write not
   * confirmed in time fails with `store_failure`). Off by default: Redis replication is asynchronous,
   * so a failover can lose a write its master acknowledged. See docs/guides/redis.md, "Failover".
   */
  waitForReplicas?: ReplicaWait;
}

type StreamEntries = [id: string, fields: string[]][];

/** The runtime's trusted input path: no parse, no copy (every event is serialized right away). */
const trustedInputs = trustedStoreInputs(runEventLogInputs);

/**
 * Per-run event logs as Redis streams (entry id `0-<seq>`), so `XRANGE`/`XREAD` from any seq is an
 * index lookup. `append` is a Lua script that only continues the stored last seq and checks the
 * writer's fence against the highest one the log has seen (`raiseFence`); `tail` waits for new
 * entries with one `XREAD BLOCK` shared by every waiting tail of the log (one blocking connection,
 * however many streams are open; see `StreamWaiter`), bounded by `waitMs`, wakes as soon as another
 * process appends, and reads what arrived with `XRANGE`. `finish` sets the expiry of the run's keys,
 * and of its decision inbox under the same prefix. Inputs are validated by the contract's schemas; appends and finishes record their
 * reply per request, so a command re-sent after a lost reply does not append twice. The log offers
 * the contract's trusted view (`trustedViewOf`): the same log on the same connections, for the
 * runtime's own calls, whose runtime-built inputs skip the parse (see `trustedStoreInputs`).
 */
export class RedisRunEventLog implements RunEventLog {
  readonly redis: Redis;
  readonly prefix: string;
  readonly #owned: boolean;
  readonly #waiter: StreamWaiter;
  readonly #ttlMs: number;
  readonly #scripts: ScriptContext;
  readonly #inputs: typeof runEventLogInputs;

  /** `trustedTwinOf` is internal: the log's trusted view is built so, sharing its connections. */
  constructor(options: RedisRunEventLogOptions, trustedTwinOf?: RedisRunEventLog) {
    if (trustedTwinOf !== undefined) {
      this.redis = trustedTwinOf.redis;
      this.#owned = false;
      this.prefix = trustedTwinOf.prefix;
      this.#waiter = trustedTwinOf.#waiter;
      this.#ttlMs = trustedTwinOf.#ttlMs;
      this.#scripts = trustedTwinOf.#scripts;
      this.#inputs = trustedInputs;
      return;
    }
    this.#inputs = runEventLogInputs;
    const { client, owned, prefix, scripts } = openStore(options);
    this.redis = client;
    this.#owned = owned;
    this.prefix = prefix;
    this.#waiter = new StreamWaiter(client, routeKey(prefix));
    this.#ttlMs = options.finishedTtlMs ?? DEFAULT_FINISHED_LOG_TTL_MS;
    this.#scripts = scripts;
    offerTrustedView(this, new RedisRunEventLog(options, this));
  }

  /** How long a finished log is kept when `finish` gets no `ttlMs` (the joint write's end uses it). */
  get finishedTtlMs(): number {
    return this.#ttlMs;
  }

  /** The finish script's arguments (after the prefix), shared with the joint write's end. */
  finishArgs(runId: string, fence: number, ttlMs: number = this.#ttlMs): (string | number)[] {
    const keys = runKeys(this.prefix, runId);
    return [runId, keys.events, keys.eventMeta, fence, Math.ceil(ttlMs), ...inboxKeys(this.prefix, runId)];
  }

  async append(input: string, given: readonly AgentEvent[], options?: FencedWrite): Promise<void> {
    const {
      runId,
      events,
      fence = 0,
    } = this.#inputs.append.parse({
      runId: input,
      events: given,
      fence: options?.fence,
    });
    await APPEND_EVENTS.call(this.#scripts, appendArgs(this.prefix, runId, events, fence));
  }

  async read(runId: string, query?: { afterSeq?: number; limit?: number }): Promise<AgentEvent[]> {
    const parsed = this.#inputs.read.parse({ runId, afterSeq: query?.afterSeq, limit: query?.limit });
    return this.#range(parsed.runId, parsed.afterSeq ?? 0, parsed.limit);
  }

  async tail(
    input: string,
    given: { afterSeq: number; waitMs: number; limit?: number; signal?: AbortSignal },
  ): Promise<AgentEvent[]> {
    const { runId, afterSeq, waitMs, limit, signal } = this.#inputs.tail.parse({ ...given, runId: input });
    // Whether the log is finished is read BEFORE its events: a log finished by then holds every
    // event it will ever hold, so an empty read means the stream is over. (Read after, an append and
    // a finish landing between the two reads would end the tail without the last events.)
    const [finished, ready] = await this.#finishedAndRange(runId, afterSeq, limit);
    if (ready.length > 0 || finished || waitMs <= 0 || signal?.aborted) return ready;
    // The shared XREAD wakes at once for anything appended since the read above, and a finish since
    // then adds the end marker it wakes on. A wake-up may be spurious (another tail's seq): read again.
    const stream = runKeys(this.prefix, runId).events;
    const deadline = Date.now() + waitMs;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) return [];
      if (!(await this.#call(() => this.#waiter.wait(stream, afterSeq, Math.ceil(left), signal)))) return [];
      const [done, events] = await this.#finishedAndRange(runId, afterSeq, limit);
      if (events.length > 0 || done) return events;
    }
  }

  async lastSeq(input: string): Promise<number> {
    const { runId } = this.#inputs.lastSeq.parse({ runId: input });
    const meta = runKeys(this.prefix, runId).eventMeta;
    return Number((await this.#call(() => this.redis.hget(meta, 'last'))) ?? 0);
  }

  async finish(input: string, options?: { ttlMs?: number } & FencedWrite): Promise<void> {
    const {
      runId,
      ttlMs = this.#ttlMs,
      fence = 0,
    } = this.#inputs.finish.parse({ runId: input, ttlMs: options?.ttlMs, fence: options?.fence });
    await FINISH_LOG.call(this.#scripts, this.finishArgs(runId, fence, ttlMs));
  }

  async raiseFence(input: string, given: number): Promise<number> {
    const { runId, fence } = this.#inputs.raiseFence.parse({ runId: input, fence: given });
    const keys = runKeys(this.prefix, runId);
    return Number(await RAISE_FENCE.call(this.#scripts, [runId, keys.events, keys.eventMeta, fence]));
  }

  async isFinished(input: string): Promise<boolean> {
    return this.#finished(this.#inputs.isFinished.parse({ runId: input }).runId);
  }

  async #finished(runId: string): Promise<boolean> {
    const meta = runKeys(this.prefix, runId).eventMeta;
    return (await this.#call(() => this.redis.hget(meta, 'finished'))) === '1';
  }

  /**
   * Whether the log is finished, then its events after `afterSeq`: one pipeline, so one round trip,
   * and Redis runs the two reads in this order (the finished flag is read before the events).
   */
  async #finishedAndRange(
    runId: string,
    afterSeq: number,
    limit: number | undefined,
  ): Promise<[finished: boolean, events: AgentEvent[]]> {
    const keys = runKeys(this.prefix, runId);
    const start = `0-${afterSeq + 1}`;
    const pipeline = this.redis.pipeline().hget(keys.eventMeta, 'finished');
    if (limit === undefined) pipeline.xrange(keys.events, start, '+');
    else pipeline.xrange(keys.events, start, '+', 'COUNT', limit);
    const replies = await this.#call(() => pipeline.exec());
    if (replies?.length !== 2) throw toStoreError(new Error('the event log read was not answered'));
    const [finished, entries] = replies.map(([error, reply]) => {
      if (error) throw toStoreError(error);
      return reply;
    });
    return [finished === '1', decodeEntries(entries as StreamEntries)];
  }

  async #range(runId: string, afterSeq: number, limit: number | undefined): Promise<AgentEvent[]> {
    const stream = runKeys(this.prefix, runId).events;
    const start = `0-${afterSeq + 1}`;
    const entries = await this.#call(() =>
      limit === undefined
        ? this.redis.xrange(stream, start, '+')
        : this.redis.xrange(stream, start, '+', 'COUNT', limit),
    );
    return decodeEntries(entries);
  }

  /** Closes the blocking connection, and the main one if the log created it. */
  async close(): Promise<void> {
    await this.#waiter.close();
    if (this.#owned) await closeRedis(this.redis);
  }

  async #call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw toStoreError(error);
    }
  }
}

/** Decodes stream entries (`e` = event JSON), skipping the end marker `finish` adds. */
function decodeEntries(entries: StreamEntries): AgentEvent[] {
  const events: AgentEvent[] = [];
  for (const [, fields] of entries) {
    if (fields[0] !== 'e') continue;
    events.push(parseWith(agentEventSchema, JSON.parse(fields[1] ?? 'null'), 'stored event'));
  }
  return events;
}

/** Creates a {@link RedisRunEventLog}. */
export function createRedisRunEventLog(options: RedisRunEventLogOptions): RedisRunEventLog {
  return new RedisRunEventLog(options);
}
