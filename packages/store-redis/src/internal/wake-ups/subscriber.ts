import type { Redis } from 'ioredis';
import { logConnectionState, sinkOf } from '../connection/connection-log';
import { closeRedis } from '../connection/redis-connection';
import { isCluster, masterFor } from '../cluster/cluster-topology';

/**
 * One dedicated pub/sub connection (duplicated from a base client, opened on first use) shared by
 * every listener of a store. Channels are subscribed while at least one listener wants them.
 */
export class Subscriber {
  readonly #base: Redis;
  readonly #listeners = new Map<string, Set<() => void>>();
  #client: Redis | undefined;
  #opening: Promise<Redis> | undefined;
  #closed = false;
  #moving = false;
  readonly #routeKey: string;

  /**
   * On a cluster the pub/sub connection goes to one master (the one serving `routeKey`'s slot):
   * PUBLISH on a cluster reaches the subscribers of every node.
   */
  constructor(base: Redis, routeKey = '') {
    this.#base = base;
    this.#routeKey = routeKey;
  }

  /** Resolves once the channel subscription is active; returns the unsubscribe function. */
  async listen(channel: string, listener: () => void): Promise<() => Promise<void>> {
    if (this.#client?.status === 'end') this.#client = undefined;
    const client = isCluster(this.#base)
      ? (this.#client ?? (await this.#open()))
      : this.#connection(this.#base);
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
        // the connection now serving the channel (another one after a failover)
        const serving = this.#client;
        if (serving?.status === 'ready') await serving.unsubscribe(channel).catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    await this.#opening?.catch(() => undefined);
    if (this.#client) await closeRedis(this.#client);
    this.#client = undefined;
  }

  #open(): Promise<Redis> {
    this.#opening ??= masterFor(this.#base, this.#routeKey)
      .then((node) => this.#connection(node))
      .finally(() => {
        this.#opening = undefined;
      });
    return this.#opening;
  }

  #connection(node: Redis): Redis {
    if (!this.#client) {
      // No ready check: after a restart Redis answers INFO with `loading` until its data is read, and
      // ioredis writes a SUBSCRIBE (allowed while loading) at once; the INFO that re-checks
      // readiness then fails with "Connection in subscriber mode", and so did the SUBSCRIBE of an
      // activation starting just then. Pub/sub needs no data, so the connection is ready at once.
      const client = node.duplicate({ enableReadyCheck: false });
      logConnectionState(client, 'subscriber', sinkOf(this.#base));
      client.on('message', (channel: string) => {
        for (const listener of this.#listeners.get(channel) ?? []) listener();
      });
      if (isCluster(this.#base)) client.once('end', () => void this.#moveAfter(client));
      this.#client = client;
    }
    return this.#client;
  }

  /**
   * A cluster's node connection never reconnects (ioredis waits for the slot map to change), so
   * when the master this connection went to is gone (a failover) the channels still listened to
   * move to a connection on the slot's current master, retried with backoff until one opens (or
   * the subscriber closes). Every listener is then called once: a message published while no
   * connection listened is lost, and listeners are wake-ups, for which an extra call is harmless.
   */
  async #moveAfter(ended: Redis): Promise<void> {
    if (this.#client === ended) this.#client = undefined;
    if (this.#moving) return; // the move under way picks up the channels
    this.#moving = true;
    try {
      await this.#move();
    } finally {
      this.#moving = false;
    }
  }

  async #move(): Promise<void> {
    for (let attempt = 1; !this.#closed && this.#listeners.size > 0; attempt += 1) {
      try {
        const client = this.#client ?? (await this.#open());
        const channels = [...this.#listeners.keys()];
        if (channels.length > 0) await client.subscribe(...channels);
        for (const listeners of [...this.#listeners.values()])
          for (const listener of [...listeners]) listener();
        return;
      } catch {
        if (this.#client?.status === 'end') this.#client = undefined;
        await new Promise((resolve) => setTimeout(resolve, Math.min(attempt * 100, 1_000)));
      }
    }
  }
}
