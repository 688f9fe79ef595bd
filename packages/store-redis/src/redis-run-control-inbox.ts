import {
  type RunControl,
  type RunControlInbox,
  decisionTarget,
  runControlInboxInputs as inputs,
  parseWith,
  runControlSchema,
} from '@awaken/contract';
import type { Redis } from 'ioredis';
import { type RedisInput, closeRedis } from './internal/connection/redis-connection';
import { toStoreError } from './internal/connection/redis-error';
import { inboxKeys, runKeys } from './internal/keys/run-keys';
import { PEEK_CONTROLS } from './internal/lua/controls/peek-controls';
import { PUT_CONTROL } from './internal/lua/controls/put-control';
import { REMOVE_CONTROLS } from './internal/lua/controls/remove-controls';
import { type ScriptContext, openStore, routeKey } from './internal/lua/script-context';
import { Subscriber } from './internal/wake-ups/subscriber';
import type { ReplicaWait } from './internal/lua/replica-wait';

export interface RedisRunControlInboxOptions {
  /** An ioredis client (stays yours: `close()` leaves it open), client options or a `redis://` URL. */
  redis: RedisInput;
  /** Key prefix; default `awaken`. */
  prefix?: string;
  /** How long each write's reply is kept for a request re-sent after a lost reply; default two minutes, 0 = off. */
  requestTtlMs?: number;
  /**
   * Acknowledge a write only once this many replicas hold it (`WAIT` after each write; a write not
   * confirmed in time fails with `store_failure`). Off by default: Redis replication is asynchronous,
   * so a failover can lose a write its master acknowledged. See docs/guides/redis.md, "Failover".
   */
  waitForReplicas?: ReplicaWait;
}

/**
 * Per-run control inboxes (decisions, cancel, user input) on Redis. `put`, `peek` and `remove` are
 * Lua scripts: an id is stored once while pending, a second pending decision for one target (its
 * call, or its ticket when it names no call) is rejected, and `remove` takes out exactly the given ids, so an entry that arrived after a reader's
 * peek is never lost. `put` publishes a wake-up that `subscribe` listeners in any process receive
 * (pub/sub is best effort: a listener that was not connected misses it, so readers also peek).
 * Inputs are validated by the contract's `runControlInboxInputs`; a run's inbox keys expire with its
 * event log when the log under the same prefix is finished. Puts and removes record their reply per
 * request, so a command re-sent after a lost reply answers as the first one did.
 */
export class RedisRunControlInbox implements RunControlInbox {
  readonly redis: Redis;
  readonly prefix: string;
  readonly #owned: boolean;
  readonly #subscriber: Subscriber;
  readonly #scripts: ScriptContext;

  constructor(options: RedisRunControlInboxOptions) {
    const { client, owned, prefix, scripts } = openStore(options);
    this.redis = client;
    this.#owned = owned;
    this.prefix = prefix;
    this.#subscriber = new Subscriber(client, routeKey(prefix));
    this.#scripts = scripts;
  }

  async put(input: string, given: RunControl): Promise<'stored' | 'duplicate'> {
    const { runId, control } = inputs.put.parse({ runId: input, control: given });
    const call = control.kind === 'decision' ? decisionTarget(control.decision) : '';
    const keys = runKeys(this.prefix, runId);
    const args = [
      ...this.#inbox(runId),
      keys.controlChannel,
      keys.eventMeta,
      control.id,
      control.kind,
      call,
      JSON.stringify(control),
    ];
    return (await PUT_CONTROL.call(this.#scripts, args)) as 'stored' | 'duplicate';
  }

  async peek(input: string): Promise<RunControl[]> {
    const { runId } = inputs.peek.parse({ runId: input });
    const entries = (await PEEK_CONTROLS.run(this.redis, this.#scripts.keys, [
      this.prefix,
      ...this.#inbox(runId),
    ])) as string[];
    return entries.map((json) => parseWith(runControlSchema, JSON.parse(json), 'stored run control'));
  }

  async remove(input: string, given: readonly string[]): Promise<void> {
    const { runId, ids } = inputs.remove.parse({ runId: input, ids: given });
    if (ids.length === 0) return;
    await REMOVE_CONTROLS.call(this.#scripts, [...this.#inbox(runId), ...ids]);
  }

  async subscribe(input: string, given: () => void): Promise<() => Promise<void>> {
    const { runId, listener } = inputs.subscribe.parse({ runId: input, listener: given });
    try {
      return await this.#subscriber.listen(runKeys(this.prefix, runId).controlChannel, listener);
    } catch (error) {
      throw toStoreError(error);
    }
  }

  /** ARGV after the prefix of every inbox script: runId, queue, entries and calls keys. */
  #inbox(runId: string): string[] {
    return [runId, ...inboxKeys(this.prefix, runId)];
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
