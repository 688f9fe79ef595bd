import type { Redis } from 'ioredis';
import { logConnectionState, sinkOf } from '../connection/connection-log';
import { closeRedis } from '../connection/redis-connection';

interface BlockingConnection {
  client: Redis;
  /** The server-side CLIENT ID, so another connection can CLIENT UNBLOCK it. */
  clientId: number;
}

/**
 * Dedicated connections for blocking reads (XREAD BLOCK), duplicated from a base client: a blocked
 * connection serves nobody else, so each concurrent tail borrows its own and returns it afterwards.
 */
export class BlockingPool {
  readonly #base: Redis;
  readonly #idle: BlockingConnection[] = [];
  readonly #all = new Set<BlockingConnection>();
  readonly #maxIdle: number;

  constructor(base: Redis, maxIdle = 8) {
    this.#base = base;
    this.#maxIdle = maxIdle;
  }

  /** Runs `use` on a dedicated connection; `signal` unblocks it early (CLIENT UNBLOCK). */
  async with<T>(signal: AbortSignal | undefined, use: (client: Redis) => Promise<T>): Promise<T> {
    const connection = this.#idle.pop() ?? (await this.#open());
    const unblock = () => {
      this.#base.client('UNBLOCK', connection.clientId).catch(() => undefined);
    };
    signal?.addEventListener('abort', unblock, { once: true });
    try {
      return await use(connection.client);
    } finally {
      signal?.removeEventListener('abort', unblock);
      if (this.#idle.length < this.#maxIdle && connection.client.status === 'ready')
        this.#idle.push(connection);
      else this.#drop(connection);
    }
  }

  async close(): Promise<void> {
    const all = [...this.#all];
    this.#idle.length = 0;
    this.#all.clear();
    await Promise.all(all.map((connection) => closeRedis(connection.client)));
  }

  async #open(): Promise<BlockingConnection> {
    const client = this.#base.duplicate();
    logConnectionState(client, 'blocking', sinkOf(this.#base));
    const clientId = Number(await client.client('ID'));
    const connection = { client, clientId };
    this.#all.add(connection);
    return connection;
  }

  #drop(connection: BlockingConnection): void {
    this.#all.delete(connection);
    void closeRedis(connection.client);
  }
}
