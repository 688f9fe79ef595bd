import {
  type DecisionInbox,
  type ToolCallDecision,
  decisionInboxInputs as inputs,
  parseWith,
  toolCallDecisionSchema,
} from '@awaken/contract';
import type { Redis } from 'ioredis';
import { type ScriptContext, requestTtl } from './internal/idempotent-script';
import { DRAIN_DECISIONS, PUT_DECISION } from './internal/inbox-lua';
import { type RedisInput, closeRedis, normalizePrefix, resolveRedis } from './internal/redis-connection';
import { toStoreError } from './internal/redis-error';
import { runKeys } from './internal/run-keys';
import { Subscriber } from './internal/subscriber';

export interface RedisDecisionInboxOptions {
  /** An ioredis client (stays yours: `close()` leaves it open), client options or a `redis://` URL. */
  redis: RedisInput;
  /** Key prefix; default `awaken`. */
  prefix?: string;
  /** How long each write's reply is kept for a request re-sent after a lost reply; default two minutes. */
  requestTtlMs?: number;
}

/**
 * Per-run decision inboxes on Redis. `put` and `drain` are Lua scripts: a decision id is stored once
 * for the life of the run, a second pending decision for one call is rejected, and a drain removes
 * what it returns in the same step, so each decision reaches exactly one drainer. `put` publishes a
 * wake-up that `subscribe` listeners in any process receive (pub/sub is best effort: a listener that
 * was not connected misses it, so executors also drain at every resume gate). A run's inbox keys
 * expire with its event log when the log under the same prefix is finished. Puts and drains record
 * their reply per request, so a command re-sent after a lost reply neither stores nor drains twice.
 */
export class RedisDecisionInbox implements DecisionInbox {
  readonly redis: Redis;
  readonly prefix: string;
  readonly #owned: boolean;
  readonly #subscriber: Subscriber;
  readonly #scripts: ScriptContext;

  constructor(options: RedisDecisionInboxOptions) {
    const { client, owned } = resolveRedis(options.redis);
    this.redis = client;
    this.#owned = owned;
    this.prefix = normalizePrefix(options.prefix);
    this.#subscriber = new Subscriber(client);
    this.#scripts = {
      redis: client,
      prefix: this.prefix,
      keys: [],
      requestTtlMs: requestTtl(options.requestTtlMs),
    };
  }

  async put(input: string, given: ToolCallDecision): Promise<'stored' | 'duplicate'> {
    const { runId, decision } = inputs.put.parse({ runId: input, decision: given });
    const keys = runKeys(this.prefix, runId);
    const args = [
      keys.inboxQueue,
      keys.inboxCalls,
      keys.inboxSeen,
      keys.inboxChannel,
      keys.eventMeta,
      decision.decisionId,
      decision.toolCallId,
      JSON.stringify(decision),
    ];
    return (await PUT_DECISION.call(this.#scripts, args)) as 'stored' | 'duplicate';
  }

  async drain(input: string): Promise<ToolCallDecision[]> {
    const keys = runKeys(this.prefix, inputs.drain.parse({ runId: input }).runId);
    const pending = (await DRAIN_DECISIONS.call(this.#scripts, [
      keys.inboxQueue,
      keys.inboxCalls,
    ])) as string[];
    return pending.map(decodeDecision);
  }

  async peek(input: string): Promise<ToolCallDecision[]> {
    const keys = runKeys(this.prefix, inputs.peek.parse({ runId: input }).runId);
    try {
      return (await this.redis.lrange(keys.inboxQueue, 0, -1)).map(decodeDecision);
    } catch (error) {
      throw toStoreError(error);
    }
  }

  async subscribe(input: string, given: () => void): Promise<() => Promise<void>> {
    const { runId, listener } = inputs.subscribe.parse({ runId: input, listener: given });
    try {
      return await this.#subscriber.listen(runKeys(this.prefix, runId).inboxChannel, listener);
    } catch (error) {
      throw toStoreError(error);
    }
  }

  /** Closes the subscriber connection, and the main one if the inbox created it. */
  async close(): Promise<void> {
    await this.#subscriber.close();
    if (this.#owned) await closeRedis(this.redis);
  }
}

function decodeDecision(json: string): ToolCallDecision {
  return parseWith(toolCallDecisionSchema, JSON.parse(json), 'stored decision');
}

/** Creates a {@link RedisDecisionInbox}. */
export function createRedisDecisionInbox(options: RedisDecisionInboxOptions): RedisDecisionInbox {
  return new RedisDecisionInbox(options);
}
