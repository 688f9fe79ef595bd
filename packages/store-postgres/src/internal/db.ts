import { createHash, randomUUID } from 'node:crypto';
import type { AwakenError } from '@awaken/contract';
import pg from 'pg';
import { waitForBlocker } from './deadlock-wait';
import { isConnectionError, isTransactionRetry, toStoreError } from './errors';
import { type FunctionCall, sqlLiteral } from './function-call';
import { migrate } from './migrate';
import { Notifier } from './notifier';
import { ReadBatch } from './read-batch';

/** A node-postgres Pool (stays yours: `close()` leaves it open), a connection string or a pool config. */
export type PostgresInput = pg.Pool | string | pg.PoolConfig;

/** Options every Postgres store (and `createPostgresStores`) accepts. */
export interface PostgresStoreOptions {
  postgres: PostgresInput;
  /** The schema holding the tables; default `awaken`. Deployments with different schemas share nothing. */
  schema?: string;
  /** Apply the package's migrations on first use (under an advisory lock); default true. */
  migrate?: boolean;
  /**
   * How long each mutating call's reply is kept, so a call re-sent after a lost reply (the store
   * re-sends on a dropped connection) answers the first reply; default two minutes, 0 turns it off.
   */
  requestTtlMs?: number;
  /** The poll behind LISTEN/NOTIFY for `waitForWork`, `tail` and `subscribe` (a lost notification only delays); default 1000 ms. */
  pollMs?: number;
  /**
   * Tests only: when true, a millisecond value in the schema's `test_clock` table freezes the store
   * clock (absent → the database clock). Production stores leave it off.
   */
  testClock?: boolean;
}

/** How a large reply is recorded: a compact form, and the reply rebuilt from it (and the call's input). */
export interface ReplyRecord<T> {
  encode(reply: T): unknown;
  decode(recorded: unknown): T;
}

/** One transaction of a mutating call. */
export interface Tx {
  query<R extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** The store clock, read once per transaction, with its BEGIN (before any lock is taken). */
  now(): Promise<number>;
  /** NOTIFY `channel` on commit. */
  notify(channel: string, payload: string): void;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const REAL_CLOCK = '(floor(extract(epoch from clock_timestamp()) * 1000))::bigint';
const DEFAULT_REQUEST_TTL_MS = 120_000;
const MAX_ATTEMPTS = 6;

const statementNames = new Map<string, string>();

/**
 * A parameterized statement as a named prepared statement (parsed and planned once per connection,
 * then only bound and executed): its name is a hash of its text, so one name never means two texts.
 * Every parameterized statement of this package has a fixed text (values are always parameters).
 */
export function prepared(text: string, values: unknown[]): pg.QueryConfig {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `awaken_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What the stores of one deployment share: the pool, the schema (migrated once), the clock, the
 * request records and the LISTEN connection.
 */
export class PgDb {
  readonly pool: pg.Pool;
  readonly schema: string;
  /** The quoted schema, to prefix table names: `${db.s}.dispatches`. */
  readonly s: string;
  /** SQL that reads the store clock (milliseconds). */
  readonly clock: string;
  readonly pollMs: number;
  readonly notifier: Notifier;
  readonly #owned: boolean;
  readonly #requestTtlMs: number;
  readonly #migrate: boolean;
  #ready: Promise<void> | undefined;
  #lastRequestSweep = 0;
  #lastFunctionSweep = 0;
  readonly #guarded = new WeakSet<pg.PoolClient>();

  constructor(options: PostgresStoreOptions) {
    const schema = options.schema ?? 'awaken';
    if (!SCHEMA_NAME.test(schema)) {
      throw new Error(
        `schema ${JSON.stringify(schema)} must match ${SCHEMA_NAME} (lower-case letters, digits, _)`,
      );
    }
    const input = options.postgres;
    this.#owned = !(input instanceof pg.Pool);
    this.pool =
      input instanceof pg.Pool
        ? input
        : new pg.Pool(typeof input === 'string' ? { connectionString: input } : input);
    if (this.#owned) this.pool.on('error', () => undefined); // an idle client's loss; the next query reconnects
    this.schema = schema;
    this.s = `"${schema}"`;
    this.clock = options.testClock
      ? `coalesce((SELECT ms FROM ${this.s}.test_clock), ${REAL_CLOCK})`
      : REAL_CLOCK;
    this.pollMs = options.pollMs ?? 1_000;
    this.#requestTtlMs = options.requestTtlMs ?? DEFAULT_REQUEST_TTL_MS;
    this.#migrate = options.migrate ?? true;
    this.notifier = new Notifier(this.pool, this.schema);
  }

  /** Migrates once (when enabled); every call waits for it. */
  ready(): Promise<void> {
    if (this.#ready === undefined) {
      this.#ready = this.#migrate
        ? migrate(this.pool, this.schema, this.s).then(() => undefined)
        : Promise.resolve();
      this.#ready.catch(() => {
        this.#ready = undefined;
      });
    }
    return this.#ready;
  }

  /**
   * A read (one statement), re-sent on a lost connection. Reads with parameters made in the same
   * tick go as one message (see `ReadBatch`); a read alone is a named prepared statement.
   */
  async read<R extends pg.QueryResultRow = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
  ): Promise<R[]> {
    await this.ready().catch((error) => {
      throw toStoreError(error);
    });
    return params.length > 0 ? this.#reads.read<R>(sql, params) : this.#readAlone<R>(sql, params);
  }

  readonly #reads = new ReadBatch(
    (sql, params) => this.#readAlone(sql, params),
    async (text) => (await this.pool.query(text)) as unknown as pg.QueryResult[],
  );

  async #readAlone<R extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<R[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return (await this.pool.query<R>(params.length > 0 ? prepared(sql, params) : sql)).rows;
      } catch (error) {
        if (attempt < MAX_ATTEMPTS && isConnectionError(error)) {
          await pause(attempt * 50);
          continue;
        }
        throw toStoreError(error);
      }
    }
  }

  /**
   * Runs `work` in one READ COMMITTED transaction (row locks give each operation its isolation) and
   * returns its result. A serialization failure or deadlock runs it again (bounded); a lost
   * connection re-sends it under the same request id, and the reply recorded by the first run (in the
   * same transaction as its writes) answers instead of a second run. An AwakenError thrown by `work`
   * rolls everything back.
   */
  async mutate<T>(work: (tx: Tx) => Promise<T>, record?: ReplyRecord<T>): Promise<T> {
    await this.ready().catch((error) => {
      throw toStoreError(error);
    });
    const recording = this.#requestTtlMs > 0;
    const requestId = randomUUID();
    for (let attempt = 1; ; attempt += 1) {
      let client: pg.PoolClient;
      try {
        client = await this.pool.connect();
      } catch (error) {
        if (attempt < MAX_ATTEMPTS && isConnectionError(error)) {
          await pause(attempt * 50);
          continue;
        }
        throw toStoreError(error);
      }
      if (!this.#guarded.has(client)) {
        // a connection lost while checked out also emits 'error' on the client: the query's rejection handles it
        client.on('error', () => undefined);
        this.#guarded.add(client);
      }
      let broken = false;
      try {
        // BEGIN and the clock in one round trip (simple query protocol: several statements, no parameters)
        const opened = (await client.query(
          `BEGIN; SELECT ${this.clock} AS now`,
        )) as unknown as pg.QueryResult[];
        const now = Number(opened[1]?.rows[0]?.now);
        if (recording && attempt > 1) {
          const earlier = await client.query<{ reply: string }>(
            `SELECT reply FROM ${this.s}.requests WHERE id = $1`,
            [requestId],
          );
          if (earlier.rows[0] !== undefined) {
            await client.query('COMMIT');
            const recorded: unknown = JSON.parse(earlier.rows[0].reply);
            return record ? record.decode(recorded) : (recorded as T);
          }
        }
        const closing: string[] = [];
        const tx: Tx = {
          query: async (sql, params) =>
            (await client.query(params !== undefined && params.length > 0 ? prepared(sql, params) : sql))
              .rows,
          now: async () => now,
          notify: (channel, payload) => {
            const statement = `SELECT pg_notify(${client.escapeLiteral(this.notifier.channel(channel))}, ${client.escapeLiteral(payload)})`;
            if (!closing.includes(statement)) closing.push(statement);
          },
        };
        const result = await work(tx);
        if (recording) {
          const reply = client.escapeLiteral(
            JSON.stringify(record ? record.encode(result) : (result ?? null)),
          );
          closing.push(
            `INSERT INTO ${this.s}.requests (id, reply, at) VALUES (${client.escapeLiteral(requestId)}, ${reply}, ${now})`,
          );
          if (now - this.#lastRequestSweep > 10_000) {
            this.#lastRequestSweep = now;
            closing.push(`DELETE FROM ${this.s}.requests WHERE at < ${now - this.#requestTtlMs}`);
          }
        }
        // The notifications, the request record and COMMIT in one round trip.
        closing.push('COMMIT');
        await client.query(closing.join('; '));
        return result;
      } catch (error) {
        if (isConnectionError(error)) {
          broken = true;
          if (attempt < MAX_ATTEMPTS) {
            await pause(attempt * 50);
            continue;
          }
          throw toStoreError(error);
        }
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        if (isTransactionRetry(error) && attempt < MAX_ATTEMPTS) {
          if (!broken) await waitForBlocker(client, error).catch(() => undefined);
          await pause(Math.random() * 20 * attempt);
          continue;
        }
        throw toStoreError(error);
      } finally {
        client.release(broken);
      }
    }
  }

  /**
   * Calls functions of the schema (installed by the migrations) in one round trip: one call alone as
   * a named prepared statement `SELECT fn($1 request id, $2 re-sent?, $3 test clock?, …args)` (its
   * own transaction), several as one simple-query message
   * `BEGIN; <lockFirst>; SELECT fn(…); SELECT fn(…); …; COMMIT` (one transaction: one
   * commit for the message; `lockFirst`, when given, takes the locks the calls will take, in one
   * order, so two messages never deadlock). Returns each function's text reply. Each function records
   * its reply under its request id in the commit of its writes, so after a lost connection, or any
   * error, the calls are re-sent one by one flagged as re-sent: a call that committed answers its
   * recorded reply, the others run (a serialization failure or deadlock runs again, bounded).
   * Without request records (`requestTtlMs` 0) the calls are sent one per message, so an error
   * belongs to one call.
   */
  async callFunctions(
    calls: readonly FunctionCall[],
    lockFirst?: (calls: readonly FunctionCall[]) => string | undefined,
  ): Promise<(string | AwakenError)[]> {
    await this.ready().catch((error) => {
      throw toStoreError(error);
    });
    const recording = this.#requestTtlMs > 0;
    const ids = calls.map(() => (recording ? randomUUID() : null));
    let resent = false;
    if (calls.length > 1 && recording) {
      try {
        return await this.#send(calls, ids, false, lockFirst?.(calls));
      } catch {
        resent = true; // which calls committed is unknown: each again, alone, answered by its record if it did
      }
    }
    const replies: (string | AwakenError)[] = [];
    for (const [index, call] of calls.entries()) {
      replies.push(await this.#callOne(call, ids[index] ?? null, resent).catch(toStoreError));
    }
    return replies;
  }

  async #callOne(call: FunctionCall, id: string | null, resent = false): Promise<string> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return (await this.#send([call], [id], resent || attempt > 1))[0] as string;
      } catch (error) {
        if (attempt < MAX_ATTEMPTS && (isConnectionError(error) || isTransactionRetry(error))) {
          await pause(isConnectionError(error) ? attempt * 50 : Math.random() * 20 * attempt);
          continue;
        }
        throw toStoreError(error);
      }
    }
  }

  /** One message; the raw error of a failure (the connection is dropped or rolled back first). */
  async #send(
    calls: readonly FunctionCall[],
    ids: readonly (string | null)[],
    resent: boolean,
    lockFirst?: string,
  ): Promise<string[]> {
    const client = await this.pool.connect();
    if (!this.#guarded.has(client)) {
      client.on('error', () => undefined);
      this.#guarded.add(client);
    }
    const test = this.clock === REAL_CLOCK ? 'false' : 'true';
    if (calls.length === 1 && lockFirst === undefined) {
      return [
        await this.#sendAlone(client, calls[0] as FunctionCall, ids[0] ?? null, resent, test === 'true'),
      ];
    }
    const statements = ['BEGIN'];
    if (lockFirst !== undefined) statements.push(lockFirst);
    const first = statements.length;
    for (const [index, call] of calls.entries()) {
      const args = [
        sqlLiteral(ids[index] ?? null),
        resent ? 'true' : 'false',
        test,
        ...call.args.map(sqlLiteral),
      ];
      statements.push(`SELECT ${this.s}.${call.fn}(${args.join(', ')}) AS reply`);
    }
    statements.push('COMMIT');
    const at = Date.now();
    if (this.#requestTtlMs > 0 && at - this.#lastFunctionSweep > 10_000) {
      this.#lastFunctionSweep = at;
      statements.push(
        `DELETE FROM ${this.s}.requests WHERE at < ${this.s}.clock_ms(${test}) - ${this.#requestTtlMs}`,
      );
    }
    let broken = false;
    try {
      const results = (await client.query(statements.join('; '))) as unknown as pg.QueryResult[];
      return calls.map((_, index) => String(results[first + index]?.rows[0]?.reply));
    } catch (error) {
      if (isConnectionError(error)) broken = true;
      else {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        // a deadlock victim is re-sent once the transaction it deadlocked with has ended
        if (!broken && isTransactionRetry(error)) await waitForBlocker(client, error).catch(() => undefined);
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /**
   * One call alone: a named prepared statement (parsed and planned once per connection), its own
   * transaction (committed with its Sync, before the reply), one round trip. Releases `client`.
   */
  async #sendAlone(
    client: pg.PoolClient,
    call: FunctionCall,
    id: string | null,
    resent: boolean,
    test: boolean,
  ): Promise<string> {
    const params: unknown[] = [id, resent, test, ...call.args];
    const text = `SELECT ${this.s}.${call.fn}(${params.map((_, index) => `$${index + 1}`).join(', ')}) AS reply`;
    let broken = false;
    try {
      const result = await client.query<{ reply: string }>(prepared(text, params));
      const at = Date.now();
      if (this.#requestTtlMs > 0 && at - this.#lastFunctionSweep > 10_000) {
        this.#lastFunctionSweep = at;
        await client
          .query(
            `DELETE FROM ${this.s}.requests WHERE at < ${this.s}.clock_ms(${test}) - ${this.#requestTtlMs}`,
          )
          .catch(() => {
            broken = true; // the call committed; the sweep is only housekeeping
          });
      }
      return String(result.rows[0]?.reply);
    } catch (error) {
      if (isConnectionError(error)) broken = true;
      else if (isTransactionRetry(error)) await waitForBlocker(client, error).catch(() => undefined);
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** Closes the LISTEN connection, and the pool if this store made it. */
  async close(): Promise<void> {
    await this.notifier.close();
    if (this.#owned) await this.pool.end();
  }
}
