import {
  AwakenError,
  type RunControl,
  type RunControlInbox,
  runControlInboxInputs as inputs,
} from '@awaken/contract';
import { PgDb, type PostgresStoreOptions } from './internal/db';
import type { FunctionCall } from './internal/function-call';
import { key, payloadOf } from './internal/keys';
import { inboxPutCall, inboxPutReply, inboxRemoveCall } from './internal/thread-inbox-functions';
import { KeyedLanes } from './internal/lane';

export type PostgresRunControlInboxOptions = PostgresStoreOptions;

/**
 * The RunControlInbox on PostgreSQL: `inboxes` (one row per run, its expiry once the run's log was
 * finished) and `controls` (pending entries in arrival order; a partial unique index keeps one pending
 * decision per target). A put locks the run's inbox row, so concurrent puts of one id store it once;
 * `subscribe` LISTENs for the NOTIFY every stored put sends on commit (best effort, as the contract
 * says: readers also peek at their gates).
 */
export class PostgresRunControlInbox implements RunControlInbox {
  readonly db: PgDb;
  readonly #shared: boolean;
  /** Calls about one run apply in call order (see KeyedLanes). */
  readonly #lanes = new KeyedLanes();

  constructor(options: PostgresRunControlInboxOptions, shared?: PgDb) {
    this.db = shared ?? new PgDb(options);
    this.#shared = shared !== undefined;
  }

  /** One function call alone (one round trip); its text reply. */
  async #call(call: FunctionCall): Promise<string> {
    const [reply] = await this.db.callFunctions([call]);
    if (AwakenError.isInstance(reply)) throw reply;
    return String(reply);
  }

  async put(runId: string, control: RunControl): Promise<'stored' | 'duplicate'> {
    const parsed = inputs.put.parse({ runId, control });
    const entry = parsed.control;
    return this.#lanes.run(parsed.runId, () => this.#put(parsed.runId, entry));
  }

  /** One call of `ib_put` (migration 8), one round trip: inbox locked, checked, entry stored, NOTIFY. */
  async #put(runId: string, entry: RunControl): Promise<'stored' | 'duplicate'> {
    const reply = await this.#call(inboxPutCall(this.db.notifier.channel('inbox'), runId, entry));
    return inboxPutReply(reply, runId, entry);
  }

  async peek(runId: string): Promise<RunControl[]> {
    const parsed = inputs.peek.parse({ runId });
    const rows = await this.#lanes.run(parsed.runId, () =>
      this.db.read<{ doc: string }>(
        `SELECT c.doc FROM ${this.db.s}.controls c JOIN ${this.db.s}.inboxes i USING (run_id)
       WHERE c.run_id = $1 AND (i.expires_at IS NULL OR i.expires_at > ${this.db.clock}) ORDER BY c.pos`,
        [key(parsed.runId)],
      ),
    );
    return rows.map((row) => JSON.parse(row.doc) as RunControl);
  }

  async remove(runId: string, ids: readonly string[]): Promise<void> {
    const parsed = inputs.remove.parse({ runId, ids });
    if (parsed.ids.length === 0) return;
    // one call of `ib_remove` (migration 8), one round trip
    await this.#lanes.run(parsed.runId, () => this.#call(inboxRemoveCall(parsed.runId, parsed.ids)));
  }

  async subscribe(runId: string, listener: () => void): Promise<() => Promise<void>> {
    const parsed = inputs.subscribe.parse({ runId, listener });
    const payload = payloadOf(key(parsed.runId));
    const unlisten = await this.db.notifier.listen('inbox', (given) => {
      if (given !== payload) return;
      try {
        parsed.listener();
      } catch {
        // A subscriber's failure is its own; the command is stored either way.
      }
    });
    return async () => unlisten();
  }

  /** Closes the pool if this store made it (a bundle's store leaves it to the bundle). */
  async close(): Promise<void> {
    if (!this.#shared) await this.db.close();
  }
}

/** Creates a {@link PostgresRunControlInbox}. */
export function createPostgresRunControlInbox(
  options: PostgresRunControlInboxOptions,
): PostgresRunControlInbox {
  return new PostgresRunControlInbox(options);
}
