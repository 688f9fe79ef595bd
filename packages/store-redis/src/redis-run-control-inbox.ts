import {
  type RunControl,
  type RunControlInbox,
  decisionTarget,
  parseWith,
  runControlIdsSchema,
  runControlSchema,
} from '@awaken/contract';
import type { Redis } from 'ioredis';
import { PEEK_CONTROLS, PUT_CONTROL, REMOVE_CONTROLS } from './internal/control-inbox-lua';
import { type RedisInput, closeRedis, normalizePrefix, resolveRedis } from './internal/redis-connection';
import { toStoreError } from './internal/redis-error';
import { Subscriber } from './internal/subscriber';

export interface RedisRunControlInboxOptions {
  /** An ioredis client (stays yours: `close()` leaves it open), client options or a `redis://` URL. */
  redis: RedisInput;
  /** Key prefix; default `awaken`. */
  prefix?: string;
}

/**
 * Per-run control inboxes (decisions, cancel, user input) on Redis. `put`, `peek` and `remove` are
 * Lua scripts: an id is stored once while pending, a second pending decision for one target (its
 * call, or its ticket when it names no call) is rejected, and `remove` takes out exactly the given ids, so an entry that arrived after a reader's
 * peek is never lost. `put` publishes a wake-up that `subscribe` listeners in any process receive
 * (pub/sub is best effort: a listener that was not connected misses it, so readers also peek).
 */
export class RedisRunControlInbox implements RunControlInbox {
  readonly redis: Redis;
  readonly prefix: string;
  readonly #owned: boolean;
  readonly #subscriber: Subscriber;

  constructor(options: RedisRunControlInboxOptions) {
    const { client, owned } = resolveRedis(options.redis);
    this.redis = client;
    this.#owned = owned;
    this.prefix = normalizePrefix(options.prefix);
    this.#subscriber = new Subscriber(client);
  }

  async put(runId: string, control: RunControl): Promise<'stored' | 'duplicate'> {
    const parsed = parseWith(runControlSchema, control, 'run control');
    const call = parsed.kind === 'decision' ? decisionTarget(parsed.decision) : '';
    const args = [this.prefix, runId, parsed.id, parsed.kind, call, JSON.stringify(parsed)];
    return (await PUT_CONTROL.run(this.redis, [], args)) as 'stored' | 'duplicate';
  }

  async peek(runId: string): Promise<RunControl[]> {
    const entries = (await PEEK_CONTROLS.run(this.redis, [], [this.prefix, runId])) as string[];
    return entries.map((json) => parseWith(runControlSchema, JSON.parse(json), 'stored run control'));
  }

  async remove(runId: string, ids: readonly string[]): Promise<void> {
    const valid = parseWith(runControlIdsSchema, ids, 'ids');
    if (valid.length === 0) return;
    await REMOVE_CONTROLS.run(this.redis, [], [this.prefix, runId, ...valid]);
  }

  async subscribe(runId: string, listener: () => void): Promise<() => Promise<void>> {
    try {
      return await this.#subscriber.listen(`${this.prefix}ctl:${runId}`, listener);
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

/** Creates a {@link RedisRunControlInbox}. */
export function createRedisRunControlInbox(options: RedisRunControlInboxOptions): RedisRunControlInbox {
  return new RedisRunControlInbox(options);
}
