import { randomUUID } from 'node:crypto';
import {
  type ClaimProof,
  type EnqueueDispatchInput,
  type MailboxInterrupt,
  type MailboxStore,
  type Page,
  type PageRequest,
  type RunDispatch,
  type RunDispatchResult,
  type RunDispatchStatus,
  TERMINAL_DISPATCH_STATUSES,
  mailboxStoreInputs as inputs,
  runDispatchStatusSchema,
} from '@awaken/contract';
import { PgDb, type PostgresStoreOptions, type Tx } from './internal/db';
import { lockDispatch, moved, parseDispatch, saveDispatch } from './internal/dispatch-rows';
import { conflict } from './internal/errors';
import { key } from './internal/keys';
import { CallPipe } from './internal/call-pipe';
import {
  type Settle,
  claimCall,
  claimReply,
  enqueueCall,
  enqueueReply,
  interruptCall,
  interruptReply,
  lockThreadsFirst,
  settleCall,
  settleReply,
} from './internal/mailbox-functions';
import { type ListedRow, readPage } from './internal/read-page';
import { checkLeaseDeadline, claimed, reclaimExpired } from './internal/mailbox-claim';
import { waitFor } from './internal/wait';

export type PostgresMailboxStoreOptions = PostgresStoreOptions;

/** Most calls sent in one message. */
const MAX_BATCH = 64;

/**
 * The MailboxStore on PostgreSQL. Every write to a dispatch first locks its thread's
 * `mailbox_threads` row, so the one-claim-per-thread rule, epochs and fencing hold under any number
 * of processes; `claim` locks candidate threads with `FOR UPDATE SKIP LOCKED`. The hot writes
 * (enqueue, claim, the fenced claimant writes, interrupt) are one call each of a function installed
 * by migration 5, in one round trip; the calls made in one tick, or while a message is out, go as one
 * message and one transaction (their threads locked first, in thread order), applied in call order
 * and answered each on its own. Lease deadlines and timestamps come from the database clock. Inputs
 * are validated by the contract's schemas first; every mutating call records its reply with its
 * writes, so a call re-sent after a lost reply answers the first reply. `waitForWork` listens for a
 * NOTIFY and polls as a fallback.
 */
export class PostgresMailboxStore implements MailboxStore {
  readonly db: PgDb;
  /** Call order, and the hot writes of a tick (or queued behind one message) sent as one message. */
  readonly #pipe: CallPipe;
  readonly #shared: boolean;
  readonly #closing = new AbortController();

  constructor(options: PostgresMailboxStoreOptions, shared?: PgDb) {
    this.db = shared ?? new PgDb(options);
    this.#shared = shared !== undefined;
    const lockFirst = lockThreadsFirst(this.db.s);
    this.#pipe = new CallPipe((calls) => this.db.callFunctions(calls, lockFirst), MAX_BATCH);
  }

  #mutate<T>(work: (tx: Tx, s: string) => Promise<T>): Promise<T> {
    return this.#pipe.task(() => this.db.mutate((tx) => work(tx, this.db.s)));
  }

  #read<T>(work: (s: string) => Promise<T>): Promise<T> {
    return this.#pipe.task(() => work(this.db.s));
  }

  /** The channel `waitForWork` listens on. */
  get #wake(): string {
    return this.db.notifier.channel('work');
  }

  async now(): Promise<number> {
    const rows = await this.#read(() => this.db.read<{ now: string }>(`SELECT ${this.db.clock} AS now`));
    return Number(rows[0]?.now);
  }

  async enqueue(input: EnqueueDispatchInput): Promise<RunDispatch> {
    const parsed = inputs.enqueue.parse(input);
    const dispatchId = parsed.dispatchId ?? randomUUID();
    const reply = await this.#pipe.call(enqueueCall(parsed, dispatchId, this.#wake));
    return enqueueReply(reply, parsed, dispatchId);
  }

  /** Enqueue, claim and start record in one transaction (see MailboxStore.enqueueAndClaim). */
  async enqueueAndClaim(
    input: EnqueueDispatchInput & { workerId: string; leaseMs: number; dispatchInstanceId?: string },
  ): Promise<RunDispatch> {
    const { workerId, leaseMs, dispatchInstanceId, ...parsed } = inputs.enqueueAndClaim.parse(input);
    const dispatchId = parsed.dispatchId ?? randomUUID();
    const claim = { workerId, leaseMs, ...(dispatchInstanceId === undefined ? {} : { dispatchInstanceId }) };
    const reply = await this.#pipe.call(enqueueCall(parsed, dispatchId, this.#wake, claim));
    return enqueueReply(reply, parsed, dispatchId, leaseMs);
  }

  async claim(input: { workerId: string; limit: number; leaseMs: number }): Promise<RunDispatch[]> {
    const parsed = inputs.claim.parse(input);
    return claimReply(await this.#pipe.call(claimCall(parsed)), parsed.leaseMs);
  }

  async claimDispatch(input: {
    dispatchId: string;
    workerId: string;
    leaseMs: number;
  }): Promise<RunDispatch | null> {
    const { dispatchId, workerId, leaseMs } = inputs.claimDispatch.parse(input);
    return this.#mutate(async (tx, s) => {
      const { dispatch, thread } = await lockDispatch(tx, s, dispatchId);
      const at = await tx.now();
      checkLeaseDeadline(at, leaseMs);
      if (dispatch.status !== 'queued' || thread.claimedId !== null) return null;
      const next = claimed(dispatch, workerId, leaseMs, at);
      await saveDispatch(tx, s, next, dispatch);
      await tx.query(`UPDATE ${s}.mailbox_threads SET claimed_id = $2 WHERE thread_id = $1`, [
        key(dispatch.threadId),
        key(dispatchId),
      ]);
      return next;
    });
  }

  /** A fenced claimant write: one call of `mb_settle` (fencing, the change, the reply record). */
  async #fenced(proof: ClaimProof, change: Settle): Promise<RunDispatch> {
    const reply = await this.#pipe.call(settleCall(proof, change, this.#wake));
    return settleReply(reply, proof, change);
  }

  /** With a result: recorded and acked in one transaction, after one fencing check. */
  async ack(input: ClaimProof & { result?: RunDispatchResult }): Promise<RunDispatch> {
    const { result, ...proof } = inputs.ack.parse(input);
    return this.#fenced(proof, { status: 'acked', ...(result === undefined ? {} : { result }) });
  }

  async nack(input: ClaimProof & { error: string; retryAt?: number }): Promise<RunDispatch> {
    const { error, retryAt, ...proof } = inputs.nack.parse(input);
    return this.#fenced(proof, {
      status: 'nack',
      fields: { lastError: error },
      ...(retryAt === undefined ? {} : { retryAt }),
    });
  }

  async deadLetter(input: ClaimProof & { error: string }): Promise<RunDispatch> {
    const { error, ...proof } = inputs.deadLetter.parse(input);
    return this.#fenced(proof, { status: 'dead_letter', fields: { lastError: error } });
  }

  async extendLease(input: ClaimProof & { leaseMs: number }): Promise<RunDispatch> {
    const { leaseMs, ...proof } = inputs.extendLease.parse(input);
    return this.#fenced(proof, { status: 'claimed', leaseMs });
  }

  async recordDispatchStart(input: ClaimProof & { dispatchInstanceId: string }): Promise<RunDispatch> {
    const { dispatchInstanceId, ...proof } = inputs.recordDispatchStart.parse(input);
    return this.#fenced(proof, { status: 'claimed', fields: { dispatchInstanceId, runStatus: 'running' } });
  }

  async recordRunResult(input: ClaimProof & { result: RunDispatchResult }): Promise<RunDispatch> {
    const { result, ...proof } = inputs.recordRunResult.parse(input);
    return this.#fenced(proof, { status: 'claimed', result });
  }

  async cancel(input: string): Promise<RunDispatch> {
    const { dispatchId } = inputs.cancel.parse({ dispatchId: input });
    return this.#mutate(async (tx, s) => {
      const { dispatch } = await lockDispatch(tx, s, dispatchId);
      if (dispatch.status !== 'queued') {
        throw conflict(
          `dispatch ${dispatchId} is ${dispatch.status}; only a queued dispatch can be cancelled`,
        );
      }
      const next = moved(dispatch, 'cancelled', await tx.now());
      await saveDispatch(tx, s, next, dispatch);
      return next;
    });
  }

  async markRequeued(input: {
    dispatchId: string;
    runId: string;
    requeueDispatchId: string;
  }): Promise<RunDispatch> {
    const { dispatchId, runId, requeueDispatchId } = inputs.markRequeued.parse(input);
    return this.#mutate(async (tx, s) => {
      const { dispatch } = await lockDispatch(tx, s, dispatchId);
      if (dispatch.status !== 'dead_letter') {
        throw conflict(`dispatch ${dispatchId} is ${dispatch.status}, not a dead letter`);
      }
      // set once: a later requeue gets the run of the first (updatedAt stays, as purge orders by it)
      if (dispatch.requeuedRunId !== undefined) return dispatch;
      const next = { ...dispatch, requeuedRunId: runId, requeuedDispatchId: requeueDispatchId };
      await saveDispatch(tx, s, next, dispatch);
      return next;
    });
  }

  async interrupt(input: string): Promise<MailboxInterrupt> {
    const { threadId } = inputs.interrupt.parse({ threadId: input });
    return interruptReply(await this.#pipe.call(interruptCall(threadId)));
  }

  async supersedeClaimed(input: string): Promise<RunDispatch> {
    const { dispatchId } = inputs.supersedeClaimed.parse({ dispatchId: input });
    return this.#mutate(async (tx, s) => {
      const { dispatch, thread } = await lockDispatch(tx, s, dispatchId);
      if (dispatch.status !== 'claimed')
        throw conflict(`dispatch ${dispatchId} is ${dispatch.status}, not claimed`);
      if (dispatch.dispatchEpoch >= thread.epoch) {
        throw conflict(`dispatch ${dispatchId} is of its thread's current epoch; interrupt the thread first`);
      }
      const next = moved(dispatch, 'superseded', await tx.now());
      await saveDispatch(tx, s, next, dispatch, this.#wake);
      return next;
    });
  }

  async loadDispatch(input: string): Promise<RunDispatch | null> {
    const { dispatchId } = inputs.loadDispatch.parse({ dispatchId: input });
    const rows = await this.#read((s) =>
      this.db.read<{ doc: string }>(`SELECT doc FROM ${s}.dispatches WHERE dispatch_id = $1`, [
        key(dispatchId),
      ]),
    );
    return rows[0] === undefined ? null : parseDispatch(rows[0].doc);
  }

  async listDispatches(
    threadId: string,
    query?: PageRequest & { status?: RunDispatchStatus[] },
  ): Promise<Page<RunDispatch>> {
    const { status, ...page } = inputs.listDispatches.parse({ ...query, threadId });
    return readPage(
      (sql, params) => this.#read(() => this.db.read<ListedRow>(sql, params)),
      `SELECT doc, seq AS pos FROM ${this.db.s}.dispatches WHERE thread_id = $1 AND seq > $2
       AND ($3::text[] IS NULL OR status = ANY($3)) ORDER BY seq LIMIT $4`,
      [key(page.threadId), Number(page.cursor ?? 0), status ?? null],
      page,
      parseDispatch,
    );
  }

  /** One `GROUP BY` over the status index (migration 4): an index-only scan, O(dispatches stored). */
  async countDispatches(): Promise<Record<RunDispatchStatus, number>> {
    inputs.countDispatches.parse({});
    const rows = await this.#read((s) =>
      this.db.read<{ status: RunDispatchStatus; count: string }>(
        `SELECT status, count(*) AS count FROM ${s}.dispatches GROUP BY status`,
        [],
      ),
    );
    const counts = Object.fromEntries(runDispatchStatusSchema.options.map((status) => [status, 0]));
    for (const row of rows) counts[row.status] = Number(row.count);
    return counts as Record<RunDispatchStatus, number>;
  }

  async listDispatchesByStatus(
    statusInput: RunDispatchStatus,
    query?: PageRequest,
  ): Promise<Page<RunDispatch>> {
    // served by the index dispatches_by_status (migration 4): dispatches of other statuses are never read
    const { status, ...page } = inputs.listDispatchesByStatus.parse({ ...query, status: statusInput });
    return readPage(
      (sql, params) => this.#read(() => this.db.read<ListedRow>(sql, params)),
      `SELECT doc, seq AS pos FROM ${this.db.s}.dispatches WHERE status = $1
       AND ($2::bigint IS NULL OR seq < $2) ORDER BY seq DESC LIMIT $3`,
      [status, page.cursor === undefined ? null : Number(page.cursor)],
      page,
      parseDispatch,
    );
  }

  async threadEpoch(input: string): Promise<number> {
    const { threadId } = inputs.threadEpoch.parse({ threadId: input });
    const rows = await this.#read((s) =>
      this.db.read<{ epoch: string }>(`SELECT epoch FROM ${s}.mailbox_threads WHERE thread_id = $1`, [
        key(threadId),
      ]),
    );
    return Number(rows[0]?.epoch ?? 0);
  }

  async reclaimExpiredLeases(input?: { limit?: number }): Promise<RunDispatch[]> {
    const { limit } = inputs.reclaimExpiredLeases.parse({ limit: input?.limit });
    return this.#mutate(async (tx, s) => {
      const reclaimed = await reclaimExpired(tx, s, limit);
      if (reclaimed.some((dispatch) => dispatch.status === 'queued')) tx.notify('work', '');
      return reclaimed;
    });
  }

  async purgeTerminal(input: { olderThan: number; status?: RunDispatchStatus[] }): Promise<number> {
    const { olderThan, status } = inputs.purgeTerminal.parse(input);
    return this.#mutate(async (tx, s) => {
      const rows = await tx.query<{ count: string }>(
        `WITH gone AS (DELETE FROM ${s}.dispatches WHERE status = ANY($1) AND updated_at < $2 RETURNING 1)
         SELECT count(*) AS count FROM gone`,
        [status ?? TERMINAL_DISPATCH_STATUSES, olderThan],
      );
      return Number(rows[0]?.count ?? 0);
    });
  }

  /**
   * LISTENs for the `work` NOTIFY (sent on commit by every write that makes a dispatch claimable),
   * checks for claimable work once listening, and again on each notification and every `pollMs`.
   */
  async waitForWork(options: { timeoutMs: number; signal?: AbortSignal }): Promise<boolean> {
    const { timeoutMs, signal } = inputs.waitForWork.parse(options);
    const s = this.db.s;
    return waitFor({
      notifier: this.db.notifier,
      channel: 'work',
      matches: () => true,
      check: async () => {
        const rows = await this.db.read<{ found: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM ${s}.dispatches d WHERE d.status = 'queued' AND d.available_at <= ${this.db.clock}
             AND NOT EXISTS (SELECT 1 FROM ${s}.mailbox_threads t WHERE t.thread_id = d.thread_id AND t.claimed_id IS NOT NULL)) AS found`,
        );
        return rows[0]?.found === true;
      },
      waitMs: timeoutMs,
      pollMs: this.db.pollMs,
      signal: signal ? AbortSignal.any([signal, this.#closing.signal]) : this.#closing.signal,
    });
  }

  /** Ends pending `waitForWork` calls; closes the pool if this store made it (a bundle's store leaves it to the bundle). */
  async close(): Promise<void> {
    this.#closing.abort();
    if (!this.#shared) await this.db.close();
  }
}

/** Creates a {@link PostgresMailboxStore}. */
export function createPostgresMailboxStore(options: PostgresMailboxStoreOptions): PostgresMailboxStore {
  return new PostgresMailboxStore(options);
}
