import {
  type AgentEvent,
  AwakenError,
  type FencedWrite,
  type RunEventLog,
  agentEventSchema,
  fenceSchema,
  parseWith,
} from '@awaken/contract';
import type { Redis } from 'ioredis';
import { BlockingPool } from './internal/blocking-pool';
import { APPEND_EVENTS, FINISH_LOG, RAISE_FENCE } from './internal/event-log-lua';
import { type RedisInput, closeRedis, normalizePrefix, resolveRedis } from './internal/redis-connection';
import { toStoreError } from './internal/redis-error';

export interface RedisRunEventLogOptions {
  /** An ioredis client (stays yours: `close()` leaves it open), client options or a `redis://` URL. */
  redis: RedisInput;
  /** Key prefix; default `awaken`. */
  prefix?: string;
  /** How long a finished log is kept, unless `finish` says otherwise; default one day. */
  finishedTtlMs?: number;
}

const DAY_MS = 86_400_000;
type StreamEntries = [id: string, fields: string[]][];

/**
 * Per-run event logs as Redis streams (entry id `0-<seq>`), so `XRANGE`/`XREAD` from any seq is an
 * index lookup. `append` is a Lua script that only continues the stored last seq and checks the
 * writer's fence against the highest one the log has seen (`raiseFence`); `tail` blocks with
 * `XREAD BLOCK` on a dedicated pooled connection, bounded by `waitMs`, and wakes as soon as another
 * process appends. `finish` sets the expiry of the run's keys.
 */
export class RedisRunEventLog implements RunEventLog {
  readonly redis: Redis;
  readonly prefix: string;
  readonly #owned: boolean;
  readonly #pool: BlockingPool;
  readonly #ttlMs: number;

  constructor(options: RedisRunEventLogOptions) {
    const { client, owned } = resolveRedis(options.redis);
    this.redis = client;
    this.#owned = owned;
    this.prefix = normalizePrefix(options.prefix);
    this.#pool = new BlockingPool(client);
    this.#ttlMs = options.finishedTtlMs ?? DAY_MS;
  }

  async append(runId: string, events: readonly AgentEvent[], options: FencedWrite = {}): Promise<void> {
    const fence = parseWith(fenceSchema, options.fence ?? 0, 'fence');
    const first = events[0]?.seq ?? 0;
    const bodies = events.map((event, index) => {
      const parsed = parseWith(agentEventSchema, event, 'agent event');
      if (parsed.runId !== runId || parsed.seq !== first + index) {
        throw new AwakenError('conflict', `events must belong to run ${runId} with consecutive seq`);
      }
      return JSON.stringify(parsed);
    });
    await APPEND_EVENTS.run(this.redis, [], [this.prefix, runId, fence, first, ...bodies]);
  }

  async read(runId: string, query: { afterSeq?: number; limit?: number } = {}): Promise<AgentEvent[]> {
    const start = `0-${(query.afterSeq ?? 0) + 1}`;
    const entries = await this.#call(() =>
      query.limit === undefined
        ? this.redis.xrange(this.#stream(runId), start, '+')
        : this.redis.xrange(this.#stream(runId), start, '+', 'COUNT', Math.max(1, query.limit)),
    );
    return decodeEntries(entries);
  }

  async tail(
    runId: string,
    query: { afterSeq: number; waitMs: number; limit?: number; signal?: AbortSignal },
  ): Promise<AgentEvent[]> {
    const ready = await this.read(runId, { afterSeq: query.afterSeq, limit: query.limit });
    if (ready.length > 0 || query.waitMs <= 0 || query.signal?.aborted) return ready;
    // A finished log gets nothing newer; a finish after this check adds the end marker XREAD wakes on.
    if (await this.isFinished(runId)) return [];
    const count = Math.max(1, query.limit ?? 1000);
    const reply = await this.#call(() =>
      this.#pool.with(query.signal, (client) =>
        client.xread(
          'COUNT',
          count,
          'BLOCK',
          Math.max(1, Math.ceil(query.waitMs)),
          'STREAMS',
          this.#stream(runId),
          `0-${query.afterSeq}`,
        ),
      ),
    );
    return reply ? decodeEntries(reply[0]?.[1] ?? []) : [];
  }

  async lastSeq(runId: string): Promise<number> {
    return Number((await this.#call(() => this.redis.hget(`${this.prefix}evm:${runId}`, 'last'))) ?? 0);
  }

  async finish(runId: string, options: { ttlMs?: number } & FencedWrite = {}): Promise<void> {
    const fence = parseWith(fenceSchema, options.fence ?? 0, 'fence');
    const ttlMs = options.ttlMs ?? this.#ttlMs;
    if (!Number.isFinite(ttlMs) || ttlMs < 0) {
      throw new AwakenError('validation_failed', `ttlMs must be a number >= 0, got ${ttlMs}`);
    }
    const ttl = Math.max(1, Math.ceil(ttlMs));
    await FINISH_LOG.run(this.redis, [], [this.prefix, runId, ttl, fence]);
  }

  async raiseFence(runId: string, fence: number): Promise<number> {
    if (!Number.isSafeInteger(fence) || fence < 1) {
      throw new AwakenError('validation_failed', `invalid fence: must be a positive integer, got ${fence}`);
    }
    return Number(await RAISE_FENCE.run(this.redis, [], [this.prefix, runId, fence]));
  }

  async isFinished(runId: string): Promise<boolean> {
    return (await this.#call(() => this.redis.hget(`${this.prefix}evm:${runId}`, 'finished'))) === '1';
  }

  /** Closes the blocking connections, and the main one if the log created it. */
  async close(): Promise<void> {
    await this.#pool.close();
    if (this.#owned) await closeRedis(this.redis);
  }

  #stream(runId: string): string {
    return `${this.prefix}ev:${runId}`;
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
