import type pg from 'pg';

interface Entry {
  text: string;
  sql: string;
  params: unknown[];
  resolve(rows: pg.QueryResultRow[]): void;
  reject(error: unknown): void;
}

const MAX_BATCH = 16;

/** A string as an SQL literal of unknown type (resolved by its context, as a parameter's type is). */
function quoted(text: string): string {
  const body = text.replaceAll("'", "''");
  return text.includes('\\') ? `E'${body.replaceAll('\\', '\\\\')}'` : `'${body}'`;
}

/** An array element in PostgreSQL's array literal form (as node-postgres sends an array parameter). */
function arrayElement(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return `"${String(value).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  }
  return undefined;
}

/** A parameter's value as the literal node-postgres would send as its text; undefined when not simple. */
function literalOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return value.includes('\0') ? undefined : quoted(value);
  if (typeof value === 'number' || typeof value === 'boolean') return quoted(String(value));
  if (Array.isArray(value)) {
    const elements = value.map(arrayElement);
    if (elements.some((element) => element === undefined)) return undefined;
    const text = `{${elements.join(',')}}`;
    return text.includes('\0') ? undefined : quoted(text);
  }
  return undefined;
}

/** `sql` with its `$n` placeholders replaced by literals, or undefined when a value is not simple. */
export function inlineParameters(sql: string, params: readonly unknown[]): string | undefined {
  const literals = params.map(literalOf);
  if (literals.some((literal) => literal === undefined)) return undefined;
  let complete = true;
  const text = sql.replace(/\$(\d+)/g, (_, index: string) => {
    const literal = literals[Number(index) - 1];
    if (literal === undefined) complete = false;
    return literal ?? '';
  });
  return complete ? text : undefined;
}

/**
 * Sends the reads (one statement each, with parameters) made in the same tick as one simple-query
 * message — `SELECT …; SELECT …` with the parameters inlined as literals of unknown type, as
 * node-postgres sends them as text — one round trip instead of one each. A read alone keeps its named
 * prepared statement. Reads have no effect: when the message fails (an error in one statement ends
 * the rest, or the connection is lost), each read is sent again alone, with its own retries.
 */
export class ReadBatch {
  readonly #alone: (sql: string, params: unknown[]) => Promise<pg.QueryResultRow[]>;
  readonly #many: (text: string) => Promise<pg.QueryResult[]>;
  #pending: Entry[] = [];

  constructor(
    alone: (sql: string, params: unknown[]) => Promise<pg.QueryResultRow[]>,
    many: (text: string) => Promise<pg.QueryResult[]>,
  ) {
    this.#alone = alone;
    this.#many = many;
  }

  read<R extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<R[]> {
    const text = sql.includes(';') ? undefined : inlineParameters(sql, params);
    if (text === undefined) return this.#alone(sql, params) as Promise<R[]>;
    return new Promise<R[]>((resolve, reject) => {
      this.#pending.push({ text, sql, params, resolve: resolve as Entry['resolve'], reject });
      // after the tick's synchronous code and promise callbacks: the tick's reads go together
      if (this.#pending.length === 1) process.nextTick(() => this.#flush());
    });
  }

  #flush(): void {
    const pending = this.#pending;
    this.#pending = [];
    for (let start = 0; start < pending.length; start += MAX_BATCH) {
      void this.#send(pending.slice(start, start + MAX_BATCH));
    }
  }

  async #send(entries: Entry[]): Promise<void> {
    if (entries.length > 1) {
      try {
        const results = await this.#many(entries.map((entry) => entry.text).join('; '));
        if (results.length === entries.length) {
          for (const [index, entry] of entries.entries()) {
            entry.resolve((results[index] as pg.QueryResult).rows);
          }
          return;
        }
      } catch {
        // each alone below, with its own retries and its own error
      }
    }
    for (const entry of entries) {
      this.#alone(entry.sql, entry.params).then(entry.resolve, entry.reject);
    }
  }
}
