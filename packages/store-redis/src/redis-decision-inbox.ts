import {
  type DecisionInbox,
  type ToolCallDecision,
  parseWith,
  toolCallDecisionSchema,
} from '@awaken/contract';
import type { Redis } from 'ioredis';
import { DRAIN_DECISIONS, PUT_DECISION } from './internal/inbox-lua';
import { type RedisInput, closeRedis, normalizePrefix, resolveRedis } from './internal/redis-connection';
import { toStoreError } from './internal/redis-error';
import { Subscriber } from './internal/subscriber';

export interface RedisDecisionInboxOptions {
  /** An ioredis client (stays yours: `close()` leaves it open), client options or a `redis://` URL. */
  redis: RedisInput;
  /** Key prefix; default `awaken`. */
  prefix?: string;
}

/**
 * Per-run decision inboxes on Redis. `put` and `drain` are Lua scripts: a decision id is stored once
 * for the life of the run, a second pending decision for one call is rejected, and a drain removes
 * what it returns in the same step, so each decision reaches exactly one drainer. `put` publishes a
 * wake-up that `subscribe` listeners in any process receive (pub/sub is best effort: a listener that
 * was not connected misses it, so executors also drain at every resume gate).
 */
export class RedisDecisionInbox implements DecisionInbox {
  readonly redis: Redis;
  readonly prefix: string;
  readonly #owned: boolean;
  readonly #subscriber: Subscriber;

  constructor(options: RedisDecisionInboxOptions) {
    const { client, owned } = resolveRedis(options.redis);
    this.redis = client;
    this.#owned = owned;
    this.prefix = normalizePrefix(options.prefix);
    this.#subscriber = new Subscriber(client);
  }

  async put(runId: string, decision: ToolCallDecision): Promise<'stored' | 'duplicate'> {
    const parsed = parseWith(toolCallDecisionSchema, decision, 'decision');
    const args = [this.prefix, runId, parsed.decisionId, parsed.toolCallId, JSON.stringify(parsed)];
    return (await PUT_DECISION.run(this.redis, [], args)) as 'stored' | 'duplicate';
  }

  async drain(runId: string): Promise<ToolCallDecision[]> {
    const pending = (await DRAIN_DECISIONS.run(this.redis, [], [this.prefix, runId])) as string[];
    return pending.map(decodeDecision);
  }

  async peek(runId: string): Promise<ToolCallDecision[]> {
    try {
      return (await this.redis.lrange(`${this.#base(runId)}:q`, 0, -1)).map(decodeDecision);
    } catch (error) {
      throw toStoreError(error);
    }
  }

  async subscribe(runId: string, listener: () => void): Promise<() => Promise<void>> {
    try {
      return await this.#subscriber.listen(this.#base(runId), listener);
    } catch (error) {
      throw toStoreError(error);
    }
  }

  /** Closes the subscriber connection, and the main one if the inbox created it. */
  async close(): Promise<void> {
    await this.#subscriber.close();
    if (this.#owned) await closeRedis(this.redis);
  }

  #base(runId: string): string {
    return `${this.prefix}in:${runId}`;
  }
}

function decodeDecision(json: string): ToolCallDecision {
  return parseWith(toolCallDecisionSchema, JSON.parse(json), 'stored decision');
}

/** Creates a {@link RedisDecisionInbox}. */
export function createRedisDecisionInbox(options: RedisDecisionInboxOptions): RedisDecisionInbox {
  return new RedisDecisionInbox(options);
}
