import type { Redis } from 'ioredis';
import { logConnectionState, sinkOf } from '../connection/connection-log';
import { closeRedis } from '../connection/redis-connection';
import { isCluster, masterFor } from '../cluster/cluster-topology';

interface BlockingConnection {
  client: Redis;
  /** The connection it was duplicated from, which sends its CLIENT UNBLOCK (same server). */
  node: Redis;
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
  readonly #routeKey: string;

  /**
   * On a cluster, the blocking connections go to the master serving `routeKey`'s slot (the keys
   * they block on share it): a blocked cluster connection would stall that node's other commands.
   */
  constructor(base: Redis, maxIdle = 8, routeKey = '') {
    this.#base = base;
    this.#maxIdle = maxIdle;
    this.#routeKey = routeKey;
  }

  /** Runs `use` on a dedicated connection; `signal` unblocks it early (CLIENT UNBLOCK). */
  async with<T>(signal: AbortSignal | undefined, use: (client: Redis) => Promise<T>): Promise<T> {
    const connection = this.#takeIdle() ?? (await this.#open());
    const unblock = () => {
      connection.node.client('UNBLOCK', connection.clientId).catch(() => undefined);
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

  /**
   * An idle connection that is still up. One whose node went away is dropped (after a failover: a
   * cluster's node connections never reconnect), so a new one goes to the slot's current master.
   */
  #takeIdle(): BlockingConnection | undefined {
    for (let connection = this.#idle.pop(); connection; connection = this.#idle.pop()) {
      if (connection.client.status === 'ready') return connection;
      this.#drop(connection);
    }
    return undefined;
  }

  async #open(): Promise<BlockingConnection> {
    const node = isCluster(this.#base) ? await masterFor(this.#base, this.#routeKey) : this.#base;
    const client = node.duplicate();
    logConnectionState(client, 'blocking', sinkOf(this.#base));
    const clientId = Number(await client.client('ID'));
    const connection = { client, node, clientId };
    this.#all.add(connection);
    return connection;
  }

  #drop(connection: BlockingConnection): void {
    this.#all.delete(connection);
    void closeRedis(connection.client);
  }
}
