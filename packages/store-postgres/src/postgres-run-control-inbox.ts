import {
  type RunControl,
  type RunControlInbox,
  decisionTarget,
  isResentRunControl,
  reusedRunControlId,
  runControlInboxInputs as inputs,
  secondPendingDecision,
} from '@awaken/contract';
import { PgDb, type PostgresStoreOptions, type Tx } from './internal/db';
import { key, payloadOf } from './internal/keys';
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

  /** Locks (creating) the run's inbox row; an inbox past its expiry is emptied first. */
  async #lockInbox(tx: Tx, runId: string): Promise<void> {
    const rows = await tx.query<{ expires_at: string | null }>(
      `INSERT INTO ${this.db.s}.inboxes (run_id) VALUES ($1)
       ON CONFLICT (run_id) DO UPDATE SET run_id = EXCLUDED.run_id RETURNING expires_at`,
      [key(runId)],
    );
    const expiresAt = rows[0]?.expires_at;
    if (expiresAt !== null && expiresAt !== undefined && (await tx.now()) >= Number(expiresAt)) {
      await tx.query(`DELETE FROM ${this.db.s}.controls WHERE run_id = $1`, [key(runId)]);
      await tx.query(`UPDATE ${this.db.s}.inboxes SET expires_at = NULL WHERE run_id = $1`, [key(runId)]);
    }
  }

  async put(runId: string, control: RunControl): Promise<'stored' | 'duplicate'> {
    const parsed = inputs.put.parse({ runId, control });
    const entry = parsed.control;
    return this.#lanes.run(parsed.runId, () => this.#put(parsed.runId, entry));
  }

  #put(runId: string, entry: RunControl): Promise<'stored' | 'duplicate'> {
    const s = this.db.s;
    const parsed = { runId };
    return this.db.mutate(async (tx) => {
      await this.#lockInbox(tx, parsed.runId);
      const earlier = await tx.query<{ doc: string }>(
        `SELECT doc FROM ${s}.controls WHERE run_id = $1 AND id = $2`,
        [key(parsed.runId), key(entry.id)],
      );
      if (earlier[0] !== undefined) {
        if (isResentRunControl(JSON.parse(earlier[0].doc) as RunControl, entry)) return 'duplicate' as const;
        throw reusedRunControlId(parsed.runId, entry.id);
      }
      const target = entry.kind === 'decision' ? decisionTarget(entry.decision) : null;
      if (target !== null) {
        const pending = await tx.query<{ doc: string }>(
          `SELECT doc FROM ${s}.controls WHERE run_id = $1 AND target = $2`,
          [key(parsed.runId), key(target)],
        );
        if (pending[0] !== undefined) {
          const pendingId = (JSON.parse(pending[0].doc) as RunControl).id;
          throw secondPendingDecision(parsed.runId, target, pendingId);
        }
      }
      await tx.query(
        `INSERT INTO ${s}.controls (run_id, id, kind, target, doc) VALUES ($1, $2, $3, $4, $5)`,
        [
          key(parsed.runId),
          key(entry.id),
          entry.kind,
          target === null ? null : key(target),
          JSON.stringify(entry),
        ],
      );
      tx.notify('inbox', payloadOf(key(parsed.runId)));
      return 'stored' as const;
    });
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
    await this.#lanes.run(parsed.runId, () =>
      this.db.mutate(async (tx) => {
        await this.#lockInbox(tx, parsed.runId);
        await tx.query(`DELETE FROM ${this.db.s}.controls WHERE run_id = $1 AND id = ANY($2)`, [
          key(parsed.runId),
          parsed.ids.map(key),
        ]);
        return null;
      }),
    );
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
