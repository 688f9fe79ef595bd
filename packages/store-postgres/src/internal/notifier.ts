import pg from 'pg';

type Handler = (payload: string) => void;

/**
 * One LISTEN connection per deployment, opened on first use, for wake-up hints only: `waitForWork`,
 * `tail` and `subscribe` also poll, so a notification lost while the connection was down delays a
 * waiter and never loses work. A lost connection is reopened on the next `listen`.
 */
export class Notifier {
  readonly #pool: pg.Pool;
  readonly #schema: string;
  readonly #handlers = new Map<string, Set<Handler>>();
  #client: Promise<pg.Client> | undefined;
  #closed = false;

  constructor(pool: pg.Pool, schema: string) {
    this.#pool = pool;
    this.#schema = schema;
  }

  /** The NOTIFY channel of `name` in this schema. */
  channel(name: string): string {
    return `${this.#schema.slice(0, 50)}.${name}`;
  }

  /** Calls `handler` with each payload NOTIFYed on `name`; resolves once LISTEN is active. */
  async listen(name: string, handler: Handler): Promise<() => void> {
    const channel = this.channel(name);
    let handlers = this.#handlers.get(channel);
    const first = handlers === undefined;
    if (handlers === undefined) {
      handlers = new Set();
      this.#handlers.set(channel, handlers);
    }
    handlers.add(handler);
    const remove = () => {
      handlers.delete(handler);
    };
    try {
      const client = await this.#connect();
      if (first) await client.query(`LISTEN "${channel}"`);
    } catch {
      // no LISTEN: the caller's poll covers it; the next listen retries the connection
      this.#client = undefined;
    }
    return remove;
  }

  #connect(): Promise<pg.Client> {
    if (this.#client === undefined) {
      const opened = (async () => {
        const client = new pg.Client((this.#pool as unknown as { options: pg.ClientConfig }).options);
        client.on('notification', (message) => {
          for (const handler of this.#handlers.get(message.channel) ?? []) handler(message.payload ?? '');
        });
        client.on('error', () => {
          if (this.#client === opened) this.#client = undefined;
          for (const handlers of this.#handlers.values()) for (const handler of handlers) handler('');
          client.end().catch(() => undefined);
        });
        await client.connect();
        for (const channel of this.#handlers.keys()) await client.query(`LISTEN "${channel}"`);
        if (this.#closed) await client.end();
        return client;
      })();
      this.#client = opened;
      opened.catch(() => {
        if (this.#client === opened) this.#client = undefined;
      });
    }
    return this.#client;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    if (client !== undefined) await (await client.catch(() => undefined))?.end().catch(() => undefined);
  }
}
