import type { Redis } from 'ioredis';
import { logConnectionState, sinkOf } from '../connection/connection-log';
import { closeRedis } from '../connection/redis-connection';

/**
 * One dedicated pub/sub connection (duplicated from a base client, opened on first use) shared by
 * every listener of a store. Channels are subscribed while at least one listener wants them.
 */
export class Subscriber {
  readonly #base: Redis;
  readonly #listeners = new Map<string, Set<() => void>>();
  #client: Redis | undefined;

  constructor(base: Redis) {
    this.#base = base;
  }

  /** Resolves once the channel subscription is active; returns the unsubscribe function. */
  async listen(channel: string, listener: () => void): Promise<() => Promise<void>> {
    const client = this.#connection();
    const entry = () => listener();
    let listeners = this.#listeners.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(channel, listeners);
    }
    listeners.add(entry);
    await client.subscribe(channel);
    let active = true;
    return async () => {
      if (!active) return;
      active = false;
      const current = this.#listeners.get(channel);
      current?.delete(entry);
      if (current && current.size === 0) {
        this.#listeners.delete(channel);
        if (client.status === 'ready') await client.unsubscribe(channel);
      }
    };
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    if (this.#client) await closeRedis(this.#client);
    this.#client = undefined;
  }

  #connection(): Redis {
    if (!this.#client) {
      // No ready check: after a restart Redis answers INFO with `loading` until its data is read, and
      // ioredis writes a SUBSCRIBE (allowed while loading) at once; the INFO that re-checks
      // readiness then fails with "Connection in subscriber mode", and so did the SUBSCRIBE of an
      // activation starting just then. Pub/sub needs no data, so the connection is ready at once.
      const client = this.#base.duplicate({ enableReadyCheck: false });
      logConnectionState(client, 'subscriber', sinkOf(this.#base));
      client.on('message', (channel: string) => {
        for (const listener of this.#listeners.get(channel) ?? []) listener();
      });
      this.#client = client;
    }
    return this.#client;
  }
}
