import { AwakenError } from '@awaken/contract';
import { toStoreError } from '../connection/redis-error';
import { mailboxKeys } from '../keys/mailbox-keys';
import type { RedisMailboxStore } from '../../redis-mailbox-store';

/** Most dispatch ids whose shard a process remembers (the oldest are forgotten first). */
const REMEMBERED = 100_000;

/**
 * Which mailbox shard holds a dispatch. A dispatch never moves, so the shard of every dispatch this
 * process enqueued, claimed or reclaimed is remembered; any other is found by asking every shard
 * (one EXISTS each, in parallel). A remembered shard that answers `not_found` (the dispatch was
 * purged, and its id maybe reused on another thread) is forgotten and the dispatch looked up again.
 */
export class DispatchShards {
  readonly #shards: readonly RedisMailboxStore[];
  readonly #known = new Map<string, RedisMailboxStore>();

  constructor(shards: readonly RedisMailboxStore[]) {
    this.#shards = shards;
  }

  remember(dispatchId: string, shard: RedisMailboxStore): void {
    if (this.#known.get(dispatchId) === shard) return;
    this.#known.delete(dispatchId);
    this.#known.set(dispatchId, shard);
    if (this.#known.size > REMEMBERED) {
      const oldest = this.#known.keys().next().value;
      if (oldest !== undefined) this.#known.delete(oldest);
    }
  }

  /** Runs `run` on the shard of the dispatch (shard 0 when no shard holds it: it answers not_found). */
  async run<T>(dispatchId: unknown, run: (shard: RedisMailboxStore) => Promise<T>): Promise<T> {
    if (typeof dispatchId !== 'string') return run(this.#shards[0] as RedisMailboxStore);
    const remembered = this.#known.get(dispatchId);
    if (remembered !== undefined) {
      let outcome: { reply: T } | { error: unknown };
      try {
        outcome = { reply: await run(remembered) };
      } catch (error) {
        outcome = { error };
      }
      const missing =
        'reply' in outcome
          ? outcome.reply === null
          : outcome.error instanceof AwakenError && outcome.error.code === 'not_found';
      if (!missing) {
        if ('reply' in outcome) return outcome.reply;
        throw outcome.error;
      }
      // gone from the remembered shard: run again only where it is now, if that is elsewhere
      this.#known.delete(dispatchId);
      const holder = await this.find(dispatchId);
      if (holder === undefined || holder === remembered) {
        if ('reply' in outcome) return outcome.reply;
        throw outcome.error;
      }
      this.remember(dispatchId, holder);
      return run(holder);
    }
    const holder = await this.find(dispatchId);
    if (holder !== undefined) this.remember(dispatchId, holder);
    return run(holder ?? (this.#shards[0] as RedisMailboxStore));
  }

  /** The shard holding the dispatch now, or undefined. */
  async find(dispatchId: string): Promise<RedisMailboxStore | undefined> {
    try {
      const held = await Promise.all(
        this.#shards.map((shard) => shard.redis.exists(mailboxKeys(shard.prefix).dispatch(dispatchId))),
      );
      const index = held.indexOf(1);
      return index === -1 ? undefined : this.#shards[index];
    } catch (error) {
      throw toStoreError(error);
    }
  }

  /**
   * Rejects an id the caller chose that a dispatch on another shard already has, as the single-node
   * store rejects any existing id (`conflict`). Not atomic with the enqueue: two enqueues of one new
   * id on threads of two shards at the same moment both succeed (give each dispatch its own id).
   */
  async refuseElsewhere(dispatchId: unknown, target: RedisMailboxStore): Promise<void> {
    if (typeof dispatchId !== 'string' || dispatchId.length === 0) return;
    const holder = await this.find(dispatchId);
    if (holder !== undefined && holder !== target) {
      throw new AwakenError('conflict', `dispatch ${dispatchId} already exists`);
    }
  }
}
