import { randomUUID } from 'node:crypto';
import {
  type AcquireWithFence,
  AwakenError,
  type Checkpoint,
  type CheckpointWithEvents,
  type CreateRunWithLeaseInput,
  type CreateThreadInput,
  type CreatedRunWithLease,
  type MessageRecord,
  type NewMessage,
  type Page,
  type PageRequest,
  type RunLease,
  type RunCreationWithLease,
  type BranchListRequest,
  type CreateBranchInput,
  type ThreadBranching,
  type RunLeaseProof,
  type RunRecord,
  type RunEventLog,
  type RunStatus,
  type Thread,
  type ThreadListRequest,
  type ThreadRunStore,
  type Visibility,
  offerTrustedView,
  runEventLogInputs,
  threadRunStoreInputs,
} from '@awaken/contract';
import { PgDb, type PostgresStoreOptions, type Tx } from './internal/db';
import { PostgresAcquireWithFence } from './internal/postgres-acquire-with-fence';
import { PostgresCheckpointWithEvents } from './internal/postgres-checkpoint-with-events';
import { conflict, notFound } from './internal/errors';
import { key } from './internal/keys';
import { type ListedRow, readPage } from './internal/read-page';
import { checkFree, leaseOf, staleRunClaim } from './internal/run-lease';
import {
  createRunLeaseCall,
  createRunLeaseReply,
  runWriteCall,
  runWriteReply,
} from './internal/run-write-functions';
import {
  appendMessagesCall,
  appendMessagesReply,
  createRunCall,
  createRunReply,
  createThreadCall,
  createThreadReply,
} from './internal/thread-inbox-functions';
import type { FunctionCall } from './internal/function-call';
import { TickBatch } from './internal/tick-batch';
import { trustedEventLogInputs, trustedThreadRunInputs } from './internal/trusted-inputs';
import { PostgresRunEventLog } from './postgres-run-event-log';

export type PostgresThreadRunStoreOptions = PostgresStoreOptions;

const parseRun = (doc: string) => JSON.parse(doc) as RunRecord;

/** One batch per database, shared by a store and its trusted view (the runtime writes through either). */
const threadBatches = new WeakMap<PgDb, TickBatch>();

function threadBatchOf(db: PgDb): TickBatch {
  let batch = threadBatches.get(db);
  if (batch === undefined) {
    batch = new TickBatch((calls) => db.callFunctions(calls));
    threadBatches.set(db, batch);
  }
  return batch;
}

interface ThreadRow {
  doc: string;
  message_count: string;
}

/**
 * The ThreadRunStore on PostgreSQL: `threads`, `messages` (one row per message, key (thread, seq)) and
 * `runs` (the record, its fence and lease). A write locks the thread row (`FOR UPDATE`), then the run
 * row, in that order, so a checkpoint is one atomic transaction and two writers with the same expected
 * version or message count see exactly one succeed. A batch of messages is one INSERT of arrays
 * (`unnest`), whatever its size. Leases use the database clock. Writes record their reply per request.
 * The store offers the contract's trusted view (`trustedViewOf`) for the runtime's own calls, and
 * `ThreadBranching`: a branch is a thread row pointing at its source (`branch_of`, `branch_seq`);
 * `readMessages` walks that chain in one recursive query, and a branch's `message_count` starts at
 * its prefix length, so appends and checkpoints continue the seqs unchanged.
 */
export class PostgresThreadRunStore implements ThreadRunStore, RunCreationWithLease, ThreadBranching {
  readonly db: PgDb;
  readonly #shared: boolean;
  readonly #inputs: typeof threadRunStoreInputs;

  /** `trustedTwin` is internal: the store's trusted view is built so, on the same database. */
  constructor(options: PostgresThreadRunStoreOptions, shared?: PgDb, trustedTwin = false) {
    this.db = shared ?? new PgDb(options);
    this.#shared = shared !== undefined || trustedTwin;
    this.#inputs = trustedTwin ? trustedThreadRunInputs : threadRunStoreInputs;
    if (!trustedTwin) offerTrustedView(this, new PostgresThreadRunStore(options, this.db, true));
  }

  /** The document `sql` selects for `id` (its one parameter), or null when there is no such row. */
  async #readDoc<T>(sql: string, id: string): Promise<T | null> {
    const rows = await this.db.read<{ doc: string }>(sql, [key(id)]);
    return rows[0] === undefined ? null : (JSON.parse(rows[0].doc) as T);
  }

  /** Reads a listing's rows (see `readPage`). */
  readonly #readListed = (sql: string, params: unknown[]) => this.db.read<ListedRow>(sql, params);

  async #lockThread(tx: Tx, threadId: string): Promise<{ thread: Thread; count: number }> {
    const rows = await tx.query<ThreadRow>(
      `SELECT doc, message_count FROM ${this.db.s}.threads WHERE id = $1 FOR UPDATE`,
      [key(threadId)],
    );
    if (rows[0] === undefined) throw notFound('thread', threadId);
    return { thread: JSON.parse(rows[0].doc) as Thread, count: Number(rows[0].message_count) };
  }

  /** Writes the thread's document; the write moves it to the front of the `newest` order. */
  async #saveThread(tx: Tx, thread: Thread, extra = '', params: unknown[] = []): Promise<void> {
    const written = `nextval('${this.db.s}.threads_written')`;
    await tx.query(`UPDATE ${this.db.s}.threads SET doc = $2, written = ${written}${extra} WHERE id = $1`, [
      key(thread.id),
      JSON.stringify(thread),
      ...params,
    ]);
  }

  /** One call of `tr_create_thread` (migration 8), one round trip. */
  async createThread(input: CreateThreadInput): Promise<Thread> {
    const parsed = this.#inputs.createThread.parse(input);
    const id = parsed.id ?? randomUUID();
    const metadata = parsed.metadata ?? {};
    // with a createRun on it in the same tick: one message (see `TickBatch`)
    const reply = await threadBatchOf(this.db).call(key(id), createThreadCall(id, metadata));
    return createThreadReply(reply, id, metadata);
  }

  /** One function call alone (one round trip); its text reply. */
  async #call(call: FunctionCall): Promise<string> {
    const [reply] = await this.db.callFunctions([call]);
    if (AwakenError.isInstance(reply)) throw reply;
    return String(reply);
  }

  async getThread(input: string): Promise<Thread | null> {
    const { threadId } = this.#inputs.getThread.parse({ threadId: input });
    return this.#readDoc<Thread>(`SELECT doc FROM ${this.db.s}.threads WHERE id = $1`, threadId);
  }

  async listThreads(page?: ThreadListRequest): Promise<Page<Thread>> {
    const parsed = this.#inputs.listThreads.parse(page ?? {});
    if (parsed.order === 'newest') {
      // served by the index threads_by_write (migration 3)
      return readPage(
        this.#readListed,
        `SELECT doc, written AS pos FROM ${this.db.s}.threads WHERE ($1::bigint IS NULL OR written < $1)
         ORDER BY written DESC LIMIT $2`,
        [parsed.cursor === undefined ? null : Number(parsed.cursor)],
        parsed,
        (doc) => JSON.parse(doc) as Thread,
      );
    }
    return readPage(
      this.#readListed,
      `SELECT doc, pos FROM ${this.db.s}.threads WHERE pos > $1 ORDER BY pos LIMIT $2`,
      [Number(parsed.cursor ?? 0)],
      parsed,
      (doc) => JSON.parse(doc) as Thread,
    );
  }

  async deleteThread(input: string): Promise<boolean> {
    const { threadId } = this.#inputs.deleteThread.parse({ threadId: input });
    return this.db.mutate(async (tx) => {
      // a branch points at its source's messages: refused while any exists (the foreign key backs it)
      const branches = await tx.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${this.db.s}.threads WHERE branch_of = $1`,
        [key(threadId)],
      );
      const count = Number(branches[0]?.n ?? 0);
      if (count > 0) {
        throw conflict(
          `thread ${threadId} has ${count} branches; delete them first (they share its messages)`,
          { threadId, branches: count },
        );
      }
      // its messages with it (no foreign key since migration 6: the statement deletes them)
      const rows = await tx.query(
        `WITH gone AS (DELETE FROM ${this.db.s}.threads WHERE id = $1 RETURNING id),
         messages AS (DELETE FROM ${this.db.s}.messages m USING gone WHERE m.thread_id = gone.id)
         SELECT 1 FROM gone`,
        [key(threadId)],
      );
      return rows.length > 0;
    });
  }

  async updateThreadMetadata(threadId: string, metadata: Record<string, unknown>): Promise<Thread> {
    const parsed = this.#inputs.updateThreadMetadata.parse({ threadId, metadata });
    return this.db.mutate(async (tx) => {
      const { thread } = await this.#lockThread(tx, parsed.threadId);
      const next = { ...thread, metadata: parsed.metadata, updatedAt: await tx.now() };
      await this.#saveThread(tx, next);
      return next;
    });
  }

  async getThreadState(input: string): Promise<Record<string, unknown>> {
    const { threadId } = this.#inputs.getThreadState.parse({ threadId: input });
    const rows = await this.db.read<{ state: string }>(
      `SELECT state FROM ${this.db.s}.threads WHERE id = $1`,
      [key(threadId)],
    );
    return rows[0] === undefined ? {} : (JSON.parse(rows[0].state) as Record<string, unknown>);
  }

  async appendMessages(
    threadId: string,
    input: { expectedLength: number; messages: NewMessage[] },
  ): Promise<MessageRecord[]> {
    const parsed = this.#inputs.appendMessages.parse({
      threadId,
      expectedLength: input?.expectedLength,
      messages: input?.messages,
    });
    // one call of `tr_append_messages` (migration 8): thread locked, length checked, messages,
    // title, updatedAt and count written, reply recorded, in one round trip
    const { threadId: id, expectedLength, messages } = parsed;
    const reply = await this.#call(appendMessagesCall(id, expectedLength, messages));
    return appendMessagesReply(reply, id, expectedLength, messages);
  }

  async readMessages(
    threadId: string,
    range?: { from?: number; to?: number; visibility?: Visibility },
  ): Promise<MessageRecord[]> {
    const parsed = this.#inputs.readMessages.parse({
      threadId,
      from: range?.from,
      to: range?.to,
      visibility: range?.visibility,
    });
    // Inclusive bounds clipped to the log; `to < from` (also `to: 0`) is empty. The thread's chain
    // of sources (one row unless it is a branch): each holds the seqs after its own prefix, up to
    // where the branch below it cut.
    const s = this.db.s;
    const rows = await this.db.read<{ doc: string }>(
      `WITH RECURSIVE chain (id, branch_of, branch_seq, upto) AS (
         SELECT id, branch_of, branch_seq, NULL::bigint FROM ${s}.threads WHERE id = $1
         UNION ALL
         SELECT t.id, t.branch_of, t.branch_seq, LEAST(c.upto, c.branch_seq)
           FROM ${s}.threads t JOIN chain c ON t.id = c.branch_of
       )
       SELECT m.doc FROM chain c JOIN ${s}.messages m ON m.thread_id = c.id
       WHERE m.seq > COALESCE(c.branch_seq, 0) AND (c.upto IS NULL OR m.seq <= c.upto)
         AND m.seq >= $2 AND ($3::bigint IS NULL OR m.seq <= $3)
         AND ($4::text IS NULL OR m.visibility = $4) ORDER BY m.seq`,
      [key(parsed.threadId), Math.max(parsed.from ?? 1, 1), parsed.to ?? null, parsed.visibility ?? null],
    );
    return rows.map((row) => JSON.parse(row.doc) as MessageRecord);
  }

  async messageCount(input: string): Promise<number> {
    const { threadId } = this.#inputs.messageCount.parse({ threadId: input });
    const rows = await this.db.read<{ message_count: string }>(
      `SELECT message_count FROM ${this.db.s}.threads WHERE id = $1`,
      [key(threadId)],
    );
    return Number(rows[0]?.message_count ?? 0);
  }

  /** A branch of `threadId` at `atSeq`: one row pointing at the source, whatever its length. */
  async createBranch(input: CreateBranchInput): Promise<Thread> {
    const parsed = this.#inputs.createBranch.parse(input);
    const id = parsed.id ?? randomUUID();
    return this.db.mutate(async (tx) => {
      const found = await tx.query<ThreadRow>(
        `SELECT doc, message_count FROM ${this.db.s}.threads WHERE id = $1 FOR KEY SHARE`,
        [key(parsed.threadId)],
      );
      const source = found[0];
      if (source === undefined) throw notFound('thread', parsed.threadId);
      const count = Number(source.message_count);
      if (parsed.atSeq > count) {
        throw new AwakenError(
          'not_found',
          `thread ${parsed.threadId} has no message ${parsed.atSeq} (it has ${count})`,
          { details: { threadId: parsed.threadId, seq: parsed.atSeq, count } },
        );
      }
      const { title } = JSON.parse(source.doc) as Thread;
      const at = await tx.now();
      const thread: Thread = {
        id,
        metadata: parsed.metadata ?? {},
        ...(title === undefined ? {} : { title }),
        branchOf: { threadId: parsed.threadId, seq: parsed.atSeq },
        createdAt: at,
        updatedAt: at,
      };
      const rows = await tx.query(
        `INSERT INTO ${this.db.s}.threads (id, doc, message_count, branch_of, branch_seq)
         VALUES ($1, $2, $3, $4, $3) ON CONFLICT DO NOTHING RETURNING pos`,
        [key(id), JSON.stringify(thread), parsed.atSeq, key(parsed.threadId)],
      );
      if (rows.length === 0) throw conflict(`thread ${id} already exists`, { id });
      return thread;
    });
  }

  async listBranches(threadId: string, query?: BranchListRequest): Promise<Page<Thread>> {
    const parsed = this.#inputs.listBranches.parse({ ...query, threadId });
    // served by the index threads_branches (migration 5)
    return readPage(
      this.#readListed,
      `SELECT doc, pos FROM ${this.db.s}.threads WHERE branch_of = $1 AND pos > $2
       AND ($3::bigint IS NULL OR branch_seq = $3) ORDER BY pos LIMIT $4`,
      [key(parsed.threadId), Number(parsed.cursor ?? 0), parsed.atSeq ?? null],
      parsed,
      (doc) => JSON.parse(doc) as Thread,
    );
  }

  /** One call of `tr_create_run` (migration 8), one round trip: thread locked, run inserted, thread's latestRunId. */
  async createRun(input: RunRecord): Promise<RunRecord> {
    const record = this.#inputs.createRun.parse(input);
    createRunReply(await threadBatchOf(this.db).call(key(record.threadId), createRunCall(record)), record);
    return record;
  }

  /**
   * `createRun` and `acquireRun` (and `createThread` when asked) in one call of
   * `tr_create_run_lease` (migration 6), one round trip: see the contract. A missing thread is
   * inserted first (a concurrent insert of the same thread makes this one use it), then locked like
   * every write's; a refused run leaves no thread behind.
   */
  async createRunWithLease(record: RunRecord, input: CreateRunWithLeaseInput): Promise<CreatedRunWithLease> {
    const { run, owner, leaseMs, createThread } = this.#inputs.createRunWithLease.parse({
      run: record,
      owner: input?.owner,
      leaseMs: input?.leaseMs,
      createThread: input?.createThread,
    });
    const [reply] = await this.db.callFunctions([
      createRunLeaseCall(run, owner, leaseMs, createThread === true),
    ]);
    if (AwakenError.isInstance(reply)) throw reply;
    const { at, threadCreated } = createRunLeaseReply(String(reply), run);
    return { run, lease: leaseOf(run.runId, owner, 1, at + leaseMs), threadCreated };
  }

  async getRun(input: string): Promise<RunRecord | null> {
    const { runId } = this.#inputs.getRun.parse({ runId: input });
    return this.#readDoc<RunRecord>(`SELECT doc FROM ${this.db.s}.runs WHERE run_id = $1`, runId);
  }

  async listRuns(threadId: string, query?: PageRequest & { status?: RunStatus[] }): Promise<Page<RunRecord>> {
    const { status, ...page } = this.#inputs.listRuns.parse({ ...query, threadId });
    return readPage(
      this.#readListed,
      `SELECT doc, pos FROM ${this.db.s}.runs WHERE thread_id = $1 AND ($2::bigint IS NULL OR pos < $2)
       AND ($3::text[] IS NULL OR status = ANY($3)) ORDER BY pos DESC LIMIT $4`,
      [key(page.threadId), page.cursor === undefined ? null : Number(page.cursor), status ?? null],
      page,
      parseRun,
    );
  }

  async listRunsByStatus(statusInput: RunStatus, query?: PageRequest): Promise<Page<RunRecord>> {
    // served by the index runs_by_status (migration 2): runs of other statuses are never read
    const { status, ...page } = this.#inputs.listRunsByStatus.parse({ ...query, status: statusInput });
    return readPage(
      this.#readListed,
      `SELECT doc, pos FROM ${this.db.s}.runs WHERE status = $1 AND ($2::bigint IS NULL OR pos < $2)
       ORDER BY pos DESC LIMIT $3`,
      [status, page.cursor === undefined ? null : Number(page.cursor)],
      page,
      parseRun,
    );
  }

  async listAllRuns(query?: PageRequest & { status?: RunStatus[] }): Promise<Page<RunRecord>> {
    // without status: the runs' pos index, newest first; with status: runs_by_status, one range per status
    const { status, ...page } = this.#inputs.listAllRuns.parse({ ...query });
    return readPage(
      this.#readListed,
      `SELECT doc, pos FROM ${this.db.s}.runs WHERE ($1::text[] IS NULL OR status = ANY($1))
       AND ($2::bigint IS NULL OR pos < $2) ORDER BY pos DESC LIMIT $3`,
      [status ?? null, page.cursor === undefined ? null : Number(page.cursor)],
      page,
      parseRun,
    );
  }

  /**
   * One call of `tr_write` (migration 6), one round trip: thread and run locked in that order, the
   * contract's checks in its order (thread, run, fence, the run's own thread, version, length,
   * status), then the messages (one statement), the run and the thread written, the reply recorded.
   */
  async commitCheckpoint(input: Checkpoint): Promise<RunRecord> {
    const checkpoint = this.#inputs.commitCheckpoint.parse(input);
    const [reply] = await this.db.callFunctions([runWriteCall('', undefined, checkpoint)]);
    if (AwakenError.isInstance(reply)) throw reply;
    const outcome = runWriteReply(String(reply), undefined, checkpoint);
    if (outcome.status !== 'ok') throw outcome.error;
    return checkpoint.run;
  }

  /**
   * The joint writer (one call of `tr_write`: append, then checkpoint, one transaction) for an event
   * log in this store's database and schema — a `PostgresRunEventLog` on the same pool and schema;
   * undefined for any other log. The trusted view's writer takes the trusted path for both inputs.
   */
  checkpointWithEvents(log: RunEventLog): CheckpointWithEvents | undefined {
    if (
      !(log instanceof PostgresRunEventLog) ||
      log.db.pool !== this.db.pool ||
      log.db.schema !== this.db.schema
    )
      return undefined;
    const trusted = this.#inputs !== threadRunStoreInputs;
    return new PostgresCheckpointWithEvents(this.db, log, {
      checkpoint: this.#inputs.commitCheckpoint,
      append: trusted ? trustedEventLogInputs.append : runEventLogInputs.append,
    });
  }

  /**
   * The joint acquisition (one call of `tr_lease_fence`: lease, log fence, run record, one
   * transaction) for an event log in this store's database and schema; undefined for any other log.
   */
  acquireWithFence(log: RunEventLog): AcquireWithFence | undefined {
    if (
      !(log instanceof PostgresRunEventLog) ||
      log.db.pool !== this.db.pool ||
      log.db.schema !== this.db.schema
    )
      return undefined;
    return new PostgresAcquireWithFence(this.db, log, { acquireRun: this.#inputs.acquireRun });
  }

  /** One call of `tr_lease` (migration 6), one round trip: the run locked, checked and written. */
  async #lease(
    runId: string,
    op: 'acquire' | 'renew' | 'release',
    owner: string,
    fence: number,
    leaseMs: number,
  ) {
    const [reply] = await this.db.callFunctions([
      { fn: 'tr_lease', args: [key(runId), op, owner, fence, leaseMs] },
    ]);
    if (AwakenError.isInstance(reply)) throw reply;
    return String(reply);
  }

  async acquireRun(input: string, request: { owner: string; leaseMs: number }): Promise<RunLease> {
    const { runId, owner, leaseMs } = this.#inputs.acquireRun.parse({
      runId: input,
      owner: request?.owner,
      leaseMs: request?.leaseMs,
    });
    const reply = await this.#lease(runId, 'acquire', owner, 0, leaseMs);
    if (reply.startsWith('!')) {
      const refusal = JSON.parse(reply.slice(1)) as {
        code: string;
        owner: string;
        leaseUntil: number;
        at: number;
      };
      if (refusal.code === 'no_run') throw notFound('run', runId);
      // held by a live lease at the store clock: run_busy, as checkFree words it
      checkFree(runId, { fence: 0, owner: refusal.owner, leaseUntil: refusal.leaseUntil }, refusal.at);
      throw new AwakenError('store_failure', `postgres: an unexpected reply ${reply.slice(0, 200)}`);
    }
    const { fence, leaseUntil } = JSON.parse(reply) as { fence: number; leaseUntil: number };
    return leaseOf(runId, owner, fence, leaseUntil);
  }

  async renewRun(input: RunLeaseProof & { leaseMs: number }): Promise<RunLease> {
    const proof = this.#inputs.renewRun.parse(input);
    const reply = await this.#lease(proof.runId, 'renew', proof.owner, proof.fence, proof.leaseMs);
    if (reply.startsWith('!')) {
      const refusal = JSON.parse(reply.slice(1)) as { code: string; fence: number };
      if (refusal.code === 'no_run') throw notFound('run', proof.runId);
      throw staleRunClaim(
        proof.runId,
        `fence ${proof.fence} of ${proof.owner} no longer holds it (fence ${refusal.fence})`,
      );
    }
    const { leaseUntil } = JSON.parse(reply) as { leaseUntil: number };
    return leaseOf(proof.runId, proof.owner, proof.fence, leaseUntil);
  }

  async releaseRun(input: RunLeaseProof): Promise<boolean> {
    const proof = this.#inputs.releaseRun.parse(input);
    return (await this.#lease(proof.runId, 'release', proof.owner, proof.fence, 0)) === 'true';
  }

  /** Closes the pool if this store made it (a bundle's store leaves it to the bundle). */
  async close(): Promise<void> {
    if (!this.#shared) await this.db.close();
  }
}

/** Creates a {@link PostgresThreadRunStore}. */
export function createPostgresThreadRunStore(options: PostgresThreadRunStoreOptions): PostgresThreadRunStore {
  return new PostgresThreadRunStore(options);
}
