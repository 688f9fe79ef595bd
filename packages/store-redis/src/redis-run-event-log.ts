import {
  type AgentEvent,
  DEFAULT_FINISHED_LOG_TTL_MS,
  type FencedWrite,
  type RunEventLog,
  agentEventSchema,
  runEventLogInputs as inputs,
  parseWith,
} from '@awaken/contract';
import type { Redis } from 'ioredis';
import { APPEND_EVENTS, FINISH_LOG, RAISE_FENCE } from './internal/event-log-lua';
import { type ScriptContext, requestTtl } from './internal/idempotent-script';
import { type RedisInput, closeRedis, normalizePrefix, resolveRedis } from './internal/redis-connection';
import { toStoreError } from './internal/redis-error';
import { inboxKeys, runKeys } from './internal/run-keys';
import { StreamWaiter } from './internal/stream-waiter';

export interface RedisRunEventLogOptions {
  /** An ioredis client (stays yours: `close()` leaves it open), client options or a `redis://` URL. */
  redis: RedisInput;
  /** Key prefix; default `awaken`. */
  prefix?: string;
  /** How long a finished log is kept, unless `finish` says otherwise; default one hour. */
  finishedTtlMs?: number;
  /** How long each write's reply is kept for a request re-sent after a lost reply; default two minutes, 0 = off. */
  requestTtlMs?: number;
}

type StreamEntries = [id: string, fields: string[]][];

/**
 * Per-run event logs as Redis streams (entry id `0-<seq>`), so `XRANGE`/`XREAD` from any seq is an
 * index lookup. `append` is a Lua script that only continues the stored last seq and checks the
 * writer's fence against the highest one the log has seen (`raiseFence`); `tail` waits for new
 * entries with one `XREAD BLOCK` shared by every waiting tail of the log (one blocking connection,
 * however many streams are open; see `StreamWaiter`), bounded by `waitMs`, wakes as soon as another
 * process appends, and reads what arrived with `XRANGE`. `finish` sets the expiry of the run's keys,
 * and of its decision inbox under the same prefix. Inputs are validated by the contract's schemas; appends and finishes record their
 * reply per request, so a command re-sent after a lost reply does not append twice.
 */
export class RedisRunEventLog implements RunEventLog {
  readonly redis: Redis;
  readonly prefix: string;
  readonly #owned: boolean;
  readonly #waiter: StreamWaiter;
  readonly #ttlMs: number;
  readonly #scripts: ScriptContext;

  constructor(options: RedisRunEventLogOptions) {
    const { client, owned } = resolveRedis(options.redis);
    this.redis = client;
    this.#owned = owned;
    this.prefix = normalizePrefix(options.prefix);
    this.#waiter = new StreamWaiter(client);
    this.#ttlMs = options.finishedTtlMs ?? DEFAULT_FINISHED_LOG_TTL_MS;
    this.#scripts = {
      redis: client,
      prefix: this.prefix,
      keys: [],
      requestTtlMs: requestTtl(options.requestTtlMs),
    };
  }

  async append(input: string, given: readonly AgentEvent[], options?: FencedWrite): Promise<void> {
    const {
      runId,
      events,
      fence = 0,
    } = inputs.append.parse({
      runId: input,
      events: given,
      fence: options?.fence,
    });
    const keys = runKeys(this.prefix, runId);
    const fenced = [runId, keys.events, keys.eventMeta, fence];
    // No events: the fence is still checked (a fenced-out writer learns it at once).
    if (events.length === 0) {
      await APPEND_EVENTS.call(this.#scripts, fenced);
      return;
    }
    const first = events[0]?.seq ?? 0;
    // Checked here, reported by the script after the fence (a fenced-out writer hears stale_claim).
    const consistent = events.every((event, index) => event.runId === runId && event.seq === first + index);
    const bodies = events.map((event) => JSON.stringify(event));
    await APPEND_EVENTS.call(this.#scripts, [...fenced, first, consistent ? '1' : '0', ...bodies]);
  }

  async read(runId: string, query?: { afterSeq?: number; limit?: number }): Promise<AgentEvent[]> {
    const parsed = inputs.read.parse({ runId, afterSeq: query?.afterSeq, limit: query?.limit });
    return this.#range(parsed.runId, parsed.afterSeq ?? 0, parsed.limit);
  }

  async tail(
    input: string,
    given: { afterSeq: number; waitMs: number; limit?: number; signal?: AbortSignal },
  ): Promise<AgentEvent[]> {
    const { runId, afterSeq, waitMs, limit, signal } = inputs.tail.parse({ ...given, runId: input });
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
    const { runId } = inputs.lastSeq.parse({ runId: input });
    const meta = runKeys(this.prefix, runId).eventMeta;
    return Number((await this.#call(() => this.redis.hget(meta, 'last'))) ?? 0);
  }

  async finish(input: string, options?: { ttlMs?: number } & FencedWrite): Promise<void> {
    const {
      runId,
      ttlMs = this.#ttlMs,
      fence = 0,
    } = inputs.finish.parse({ runId: input, ttlMs: options?.ttlMs, fence: options?.fence });
    const keys = runKeys(this.prefix, runId);
    const args = [
      runId,
      keys.events,
      keys.eventMeta,
      fence,
      Math.ceil(ttlMs),
      ...inboxKeys(this.prefix, runId),
    ];
    await FINISH_LOG.call(this.#scripts, args);
  }

  async raiseFence(input: string, given: number): Promise<number> {
    const { runId, fence } = inputs.raiseFence.parse({ runId: input, fence: given });
    const keys = runKeys(this.prefix, runId);
    return Number(await RAISE_FENCE.call(this.#scripts, [runId, keys.events, keys.eventMeta, fence]));
  }

  async isFinished(input: string): Promise<boolean> {
    return this.#finished(inputs.isFinished.parse({ runId: input }).runId);
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
