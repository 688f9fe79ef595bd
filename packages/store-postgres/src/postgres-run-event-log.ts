import {
  type AgentEvent,
  AwakenError,
  DEFAULT_FINISHED_LOG_TTL_MS,
  type FencedWrite,
  type RunEventLog,
  offerTrustedView,
  runEventLogInputs,
} from '@awaken/contract';
import { PgDb, type PostgresStoreOptions } from './internal/db';
import { appendRefusal, runWriteCall, runWriteReply } from './internal/run-write-functions';
import { key, payloadOf } from './internal/keys';
import { KeyedLanes } from './internal/lane';
import { waitFor } from './internal/wait';
import { trustedEventLogInputs } from './internal/trusted-inputs';

export type PostgresRunEventLogOptions = PostgresStoreOptions;

const SWEEP_EVERY_MS = 1_000;

/**
 * The RunEventLog on PostgreSQL: `event_logs` (one row per run: last seq, fence, expiry) and `events`
 * (key (run, seq)). An append locks the log row, checks fence and seq continuity and inserts the batch
 * in one statement, then NOTIFYs the run on commit; `tail` LISTENs, reads, and polls every `pollMs` as
 * the fallback. A finished log (and the run's inbox, same schema) is dropped `ttlMs` later, on the
 * database clock: reads treat it as gone at once, `finish` sweeps expired logs now and then.
 */
export class PostgresRunEventLog implements RunEventLog {
  readonly db: PgDb;
  readonly #shared: boolean;
  readonly #closing: AbortController;
  /** Calls about one run apply in call order (see KeyedLanes), the trusted view's calls included. */
  readonly #lanes: KeyedLanes;
  readonly #inputs: typeof runEventLogInputs;
  #lastSweep = 0;

  /** `trustedTwinOf` is internal: the log's trusted view is built so, sharing its database and lanes. */
  constructor(options: PostgresRunEventLogOptions, shared?: PgDb, trustedTwinOf?: PostgresRunEventLog) {
    if (trustedTwinOf !== undefined) {
      this.db = trustedTwinOf.db;
      this.#shared = true;
      this.#closing = trustedTwinOf.#closing;
      this.#lanes = trustedTwinOf.#lanes;
      this.#inputs = trustedEventLogInputs;
      return;
    }
    this.db = shared ?? new PgDb(options);
    this.#shared = shared !== undefined;
    this.#closing = new AbortController();
    this.#lanes = new KeyedLanes();
    this.#inputs = runEventLogInputs;
    offerTrustedView(this, new PostgresRunEventLog(options, this.db, this));
  }

  get #live(): string {
    return `(l.expires_at IS NULL OR l.expires_at > ${this.db.clock})`;
  }

  /**
   * One call of `tr_write` (migration 6), one round trip: the log row locked (created when missing),
   * fence, finished log and seq continuity checked, the events inserted in one statement, the run
   * NOTIFYed on commit, the reply recorded.
   */
  async append(runId: string, events: readonly AgentEvent[], options?: FencedWrite): Promise<void> {
    const parsed = this.#inputs.append.parse({ runId, events, fence: options?.fence });
    const given = { runId: parsed.runId, events: parsed.events, fence: parsed.fence ?? 0 };
    await this.#lanes.run(parsed.runId, async () => {
      const [reply] = await this.db.callFunctions([
        runWriteCall(this.db.notifier.channel('events'), given, undefined),
      ]);
      if (AwakenError.isInstance(reply)) throw reply;
      const outcome = runWriteReply(String(reply), given, undefined);
      if (outcome.status !== 'ok') throw outcome.error;
    });
  }

  /** A finish's expiry (whole milliseconds, as the Redis log rounds it up) and whether it sweeps now. */
  finishPlan(ttlMs: number | undefined): { ttlMs: number; sweep: boolean } {
    const at = Date.now();
    const sweep = at - this.#lastSweep >= SWEEP_EVERY_MS;
    if (sweep) this.#lastSweep = at;
    return { ttlMs: Math.ceil(ttlMs ?? DEFAULT_FINISHED_LOG_TTL_MS), sweep };
  }

  /** Runs `work` in the lane of `runId`: after the calls about that run made before it (the joint writer's). */
  inLane<T>(runId: string, work: () => Promise<T>): Promise<T> {
    return this.#lanes.run(runId, work);
  }

  async #after(
    runId: string,
    afterSeq: number,
    limit: number | undefined,
  ): Promise<{ events: AgentEvent[]; finished: boolean }> {
    const rows = await this.db.read<{ doc: string | null; finished: boolean }>(
      `SELECT e.doc, l.expires_at IS NOT NULL AS finished FROM ${this.db.s}.event_logs l
       LEFT JOIN LATERAL (SELECT doc FROM ${this.db.s}.events e WHERE e.run_id = l.run_id AND e.seq > $2 ORDER BY e.seq LIMIT $3) e ON true
       WHERE l.run_id = $1 AND ${this.#live}`,
      [key(runId), afterSeq, limit ?? null],
    );
    const events = rows.flatMap((row) => (row.doc === null ? [] : [JSON.parse(row.doc) as AgentEvent]));
    return { events, finished: rows[0]?.finished === true };
  }

  async read(runId: string, query?: { afterSeq?: number; limit?: number }): Promise<AgentEvent[]> {
    const parsed = this.#inputs.read.parse({ runId, afterSeq: query?.afterSeq, limit: query?.limit });
    return this.#lanes.run(
      parsed.runId,
      async () => (await this.#after(parsed.runId, parsed.afterSeq ?? 0, parsed.limit)).events,
    );
  }

  async tail(
    runId: string,
    query: { afterSeq: number; waitMs: number; limit?: number; signal?: AbortSignal },
  ): Promise<AgentEvent[]> {
    const { runId: id, afterSeq, waitMs, limit, signal } = this.#inputs.tail.parse({ ...query, runId });
    const payload = payloadOf(key(id));
    let found: AgentEvent[] = [];
    await waitFor({
      notifier: this.db.notifier,
      channel: 'events',
      matches: (given) => given === payload,
      check: async () => {
        const { events, finished } = await this.#after(id, afterSeq, limit);
        found = events;
        return events.length > 0 || finished;
      },
      waitMs,
      pollMs: this.db.pollMs,
      signal: signal ? AbortSignal.any([signal, this.#closing.signal]) : this.#closing.signal,
    });
    return found;
  }

  async lastSeq(runId: string): Promise<number> {
    const parsed = this.#inputs.lastSeq.parse({ runId });
    const rows = await this.db.read<{ last_seq: string }>(
      `SELECT last_seq FROM ${this.db.s}.event_logs l WHERE run_id = $1 AND ${this.#live}`,
      [key(parsed.runId)],
    );
    return Number(rows[0]?.last_seq ?? 0);
  }

  /** One call of `ev_log_write` (migration 6), one round trip; expired logs are swept now and then. */
  async finish(runId: string, options?: { ttlMs?: number } & FencedWrite): Promise<void> {
    const parsed = this.#inputs.finish.parse({ runId, ttlMs: options?.ttlMs, fence: options?.fence });
    const { ttlMs, sweep } = this.finishPlan(parsed.ttlMs);
    await this.#lanes.run(parsed.runId, () =>
      this.#logWrite(parsed.runId, 'finish', parsed.fence ?? 0, ttlMs, sweep),
    );
  }

  /** The log row written by `ev_log_write`: its last seq, or the stale fence refusal. */
  async #logWrite(runId: string, op: 'finish' | 'raise', fence: number, ttlMs: number, sweep: boolean) {
    const [reply] = await this.db.callFunctions([
      {
        fn: 'ev_log_write',
        args: [
          key(runId),
          op,
          fence,
          ttlMs,
          sweep,
          this.db.notifier.channel('events'),
          payloadOf(key(runId)),
        ],
      },
    ]);
    if (AwakenError.isInstance(reply)) throw reply;
    const text = String(reply);
    if (text.startsWith('!')) {
      throw appendRefusal(JSON.parse(text.slice(1)) as Record<string, unknown>, { runId, events: [], fence });
    }
    return Number(text);
  }

  async isFinished(runId: string): Promise<boolean> {
    const parsed = this.#inputs.isFinished.parse({ runId });
    const rows = await this.db.read(
      `SELECT 1 FROM ${this.db.s}.event_logs l WHERE run_id = $1 AND l.expires_at IS NOT NULL AND ${this.#live}`,
      [key(parsed.runId)],
    );
    return rows.length > 0;
  }

  /** One call of `ev_log_write` (migration 6), one round trip. */
  async raiseFence(runId: string, fence: number): Promise<number> {
    const parsed = this.#inputs.raiseFence.parse({ runId, fence });
    return this.#lanes.run(parsed.runId, () => this.#logWrite(parsed.runId, 'raise', parsed.fence, 0, false));
  }

  /** Ends pending tails; closes the pool if this store made it (a bundle's store leaves it to the bundle). */
  async close(): Promise<void> {
    this.#closing.abort();
    if (!this.#shared) await this.db.close();
  }
}

/** Creates a {@link PostgresRunEventLog}. */
export function createPostgresRunEventLog(options: PostgresRunEventLogOptions): PostgresRunEventLog {
  return new PostgresRunEventLog(options);
}
