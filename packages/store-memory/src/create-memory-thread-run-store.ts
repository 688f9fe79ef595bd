import { randomUUID } from 'node:crypto';
import {
  AwakenError,
  type Checkpoint,
  type CheckpointWithEvents,
  type JointAcquireStore,
  type JointCheckpointStore,
  type MessageRecord,
  type RunEventLog,
  runEventLogInputs,
  type NewMessage,
  type RunCreationWithLease,
  type ThreadBranching,
  type RunRecord,
  type RunStatus,
  type Thread,
  type ThreadRunStore,
  canTransitionRunStatus,
  threadTitleOf,
  jsonCopy,
  offerTrustedView,
  threadRunStoreInputs,
  trustedStoreInputs,
  pointersAfterCheckpoint,
  runStatusSchema,
} from '@awaken/contract';
import { clone } from './internal/clone';
import { memoryCheckpointWithEvents } from './internal/memory-checkpoint-with-events';
import { memoryLogWrites } from './internal/memory-log-writes';
import { type MemoryStoreOptions, storeClock } from './internal/clock';
import { conflict, seqNotFound, notFound } from './internal/errors';
import { pageWindow, toPage } from './internal/paging';
import { type RunOwnership, acquire, checkFence, release, renew } from './internal/run-lease-state';

interface ThreadEntry {
  position: number;
  /** When the thread was last written, as a sequence number (the `newest` order). */
  written: number;
  thread: Thread;
  /** The thread's own messages (seqs after `base`). */
  messages: MessageRecord[];
  /** A branch's prefix length (`branchOf.seq`), 0 for a thread that is not a branch. */
  base: number;
  /** A branch's source. */
  parent?: ThreadEntry;
  /** Ids of the branches made from this thread, oldest first. */
  branches: string[];
  state: Record<string, unknown>;
  runIds: Set<string>;
}

interface RunEntry {
  position: number;
  record: RunRecord;
  ownership: RunOwnership;
}

/**
 * A {@link ThreadRunStore} in process memory: the embedded default and the reference the conformance
 * suite is written against.
 *
 * Guarantees: everything the contract's ThreadRunStore TSDoc lists. Every operation runs to completion
 * without yielding between its checks and its writes, so a checkpoint is all-or-nothing and two
 * concurrent writers with the same expected version / message count see exactly one succeed. Inputs
 * are validated and copied by the contract's store input schemas (`validation_failed`, JSON only);
 * records are copied on the way out. Run leases are timed on this store's clock (`options.now`).
 * It offers the contract's `RunCreationWithLease` (`runCreationWithLease(store)` finds it) and
 * `ThreadBranching` (`threadBranching(store)`): a branch holds its source's entry and prefix length.
 * Nothing survives the process.
 */
/** Options of {@link createMemoryThreadRunStore}. */
export interface MemoryThreadRunStoreOptions extends MemoryStoreOptions {
  /**
   * Offer the joint checkpoint write (`checkpointWithEvents(log)`, with the run's end) for a memory
   * event log, so the runtime writes each checkpoint with the events before it — and the run's last
   * events and the log's finish with the final one — in one call, as on Redis and PostgreSQL. Off by
   * default: the runtime then makes the separate calls, each seen by whoever observes or wraps the
   * store's `append` / `commitCheckpoint`.
   */
  jointCheckpoints?: boolean;
}

export function createMemoryThreadRunStore(options: MemoryThreadRunStoreOptions = {}): ThreadRunStore {
  const now = storeClock(options);
  const threads = new Map<string, ThreadEntry>();
  const runs = new Map<string, RunEntry>();
  /** The status index: run ids by their current status, kept on create, checkpoint and delete. */
  const byStatus = new Map<RunStatus, Set<string>>();
  const indexRun = (runId: string, from: RunStatus | undefined, to: RunStatus | undefined) => {
    if (from !== undefined) byStatus.get(from)?.delete(runId);
    if (to === undefined) return;
    const ids = byStatus.get(to) ?? new Set<string>();
    byStatus.set(to, ids.add(runId));
  };
  let nextPosition = 1;
  /** A thread's log length: its prefix (a branch's) and its own messages. */
  const lengthOf = (entry: ThreadEntry): number => entry.base + entry.messages.length;
  let nextWrite = 1;
  /** Marks the thread written now: `updatedAt` and its place in the `newest` order. */
  const touch = (entry: ThreadEntry, at: number): void => {
    entry.thread = { ...entry.thread, updatedAt: at };
    entry.written = nextWrite++;
  };
  /** Sets the thread's title from its first external user message, once. */
  const entitle = (entry: ThreadEntry, messages: NewMessage[]): void => {
    if (entry.thread.title !== undefined) return;
    const title = threadTitleOf(messages);
    if (title !== undefined) entry.thread = { ...entry.thread, title };
  };

  const requireThread = (threadId: string): ThreadEntry => {
    const entry = threads.get(threadId);
    if (entry === undefined) throw notFound('thread', threadId);
    return entry;
  };

  const addThread = (id: string, metadata: Record<string, unknown>, at: number): ThreadEntry => {
    const thread: Thread = { id, metadata, createdAt: at, updatedAt: at };
    const entry: ThreadEntry = {
      position: nextPosition++,
      written: nextWrite++,
      thread,
      messages: [],
      base: 0,
      branches: [],
      state: {},
      runIds: new Set<string>(),
    };
    threads.set(id, entry);
    return entry;
  };

  const addRun = (entry: ThreadEntry, record: RunRecord, ownership: RunOwnership): void => {
    runs.set(record.runId, { position: nextPosition++, record, ownership });
    indexRun(record.runId, undefined, record.status);
    entry.runIds.add(record.runId);
    entry.thread = { ...entry.thread, latestRunId: record.runId };
    touch(entry, now());
  };

  const toRecords = (entry: ThreadEntry, messages: NewMessage[], createdAt: number): MessageRecord[] =>
    messages.map((message, index) => ({
      ...message,
      threadId: entry.thread.id,
      seq: lengthOf(entry) + index + 1,
      createdAt,
    }));

  const expectLength = (entry: ThreadEntry, expected: number): void => {
    const actual = lengthOf(entry);
    if (actual !== expected) {
      throw new AwakenError(
        'stale_append',
        `thread ${entry.thread.id} has ${actual} messages, the writer expected ${expected}`,
        { details: { threadId: entry.thread.id, actual, expected } },
      );
    }
  };

  /** Appends without a spread, so a batch of any size fits (no argument-count limit). */
  const appendAll = (entry: ThreadEntry, records: MessageRecord[]): void => {
    for (const record of records) entry.messages.push(record);
  };

  /** A thread's log, prefix + own, from `from` to `to` (inclusive, already clipped to >= 1). */
  const readLog = (entry: ThreadEntry, from: number, to: number): MessageRecord[] => {
    const prefix =
      entry.parent !== undefined && from <= entry.base
        ? readLog(entry.parent, from, Math.min(to, entry.base))
        : [];
    const start = Math.max(from, entry.base + 1) - entry.base - 1;
    const own = to - entry.base <= start ? [] : entry.messages.slice(start, to - entry.base);
    return prefix.length === 0 ? own : [...prefix, ...own];
  };

  /** A parsed checkpoint, checked and written with no await (see commitCheckpoint). */
  const commitNow = (checkpoint: Checkpoint): RunRecord => {
    const { run } = checkpoint;
    // Checks in the contract's order: thread, run, fence, the run's own thread, version, length, status.
    const thread = requireThread(checkpoint.threadId);
    const stored = runs.get(run.runId);
    if (stored === undefined) throw notFound('run', run.runId);
    checkFence(run.runId, stored.ownership, checkpoint.fence);
    if (stored.record.threadId !== checkpoint.threadId) {
      throw conflict(
        `run ${run.runId} belongs to thread ${stored.record.threadId}, not ${checkpoint.threadId}`,
        {
          runId: run.runId,
          threadId: stored.record.threadId,
        },
      );
    }
    if (run.version !== stored.record.version + 1) {
      throw new AwakenError(
        'stale_version',
        `run ${run.runId} is at version ${stored.record.version}; a checkpoint must carry version ${stored.record.version + 1}, got ${run.version}`,
        { details: { runId: run.runId, stored: stored.record.version, given: run.version } },
      );
    }
    expectLength(thread, checkpoint.expectedMessageCount);
    if (!canTransitionRunStatus(stored.record.status, run.status)) {
      throw new AwakenError(
        'invalid_transition',
        `RunStatus: illegal transition ${stored.record.status} -> ${run.status}`,
        { details: { machine: 'RunStatus', from: stored.record.status, to: run.status } },
      );
    }
    const at = now();
    // Everything that can throw ran above; the writes below cannot, so the step is all-or-nothing.
    appendAll(thread, toRecords(thread, checkpoint.messages, at));
    indexRun(run.runId, stored.record.status, run.status);
    stored.record = run;
    if (checkpoint.threadState !== undefined) thread.state = checkpoint.threadState;
    thread.thread = pointersAfterCheckpoint(thread.thread, run);
    entitle(thread, checkpoint.messages);
    touch(thread, at);
    return clone(run);
  };

  const build = (
    inputs: typeof threadRunStoreInputs,
  ): JointCheckpointStore & RunCreationWithLease & ThreadBranching & JointAcquireStore => {
    const store: JointCheckpointStore & RunCreationWithLease & ThreadBranching & JointAcquireStore = {
      async createThread(input) {
        const parsed = inputs.createThread.parse(input);
        const id = parsed.id ?? randomUUID();
        if (threads.has(id)) throw conflict(`thread ${id} already exists`, { id });
        return clone(addThread(id, parsed.metadata ?? {}, now()).thread);
      },

      async getThread(input) {
        const { threadId } = inputs.getThread.parse({ threadId: input });
        const entry = threads.get(threadId);
        return entry === undefined ? null : clone(entry.thread);
      },

      async listThreads(page) {
        const { order, ...request } = inputs.listThreads.parse(page ?? {});
        if (order === 'newest') {
          const { limit, after = Number.POSITIVE_INFINITY } = pageWindow(request);
          const entries = [...threads.values()]
            .filter((entry) => entry.written < after)
            .sort((a, b) => b.written - a.written)
            .map((entry) => ({ position: entry.written, item: clone(entry.thread) }));
          return toPage(entries, limit);
        }
        const { limit, after = 0 } = pageWindow(request);
        const entries = [...threads.values()]
          .filter((entry) => entry.position > after)
          .map((entry) => ({ position: entry.position, item: clone(entry.thread) }));
        return toPage(entries, limit);
      },

      async deleteThread(input) {
        const { threadId } = inputs.deleteThread.parse({ threadId: input });
        const entry = threads.get(threadId);
        if (entry === undefined) return false;
        if (entry.branches.length > 0) {
          throw conflict(
            `thread ${threadId} has ${entry.branches.length} branches; delete them first (they share its messages)`,
            { threadId, branches: entry.branches.length },
          );
        }
        if (entry.parent !== undefined) {
          entry.parent.branches = entry.parent.branches.filter((id) => id !== threadId);
        }
        for (const runId of entry.runIds) {
          indexRun(runId, runs.get(runId)?.record.status, undefined);
          runs.delete(runId);
        }
        threads.delete(threadId);
        return true;
      },

      async updateThreadMetadata(threadId, metadata) {
        const parsed = inputs.updateThreadMetadata.parse({ threadId, metadata });
        const entry = requireThread(parsed.threadId);
        entry.thread = { ...entry.thread, metadata: parsed.metadata };
        touch(entry, now());
        return clone(entry.thread);
      },

      async getThreadState(input) {
        const { threadId } = inputs.getThreadState.parse({ threadId: input });
        return clone(threads.get(threadId)?.state ?? {});
      },

      async appendMessages(threadId, input) {
        const parsed = inputs.appendMessages.parse({
          threadId,
          expectedLength: input?.expectedLength,
          messages: input?.messages,
        });
        const entry = requireThread(parsed.threadId);
        expectLength(entry, parsed.expectedLength);
        const at = now();
        const records = toRecords(entry, parsed.messages, at);
        appendAll(entry, records);
        entitle(entry, parsed.messages);
        touch(entry, at);
        return clone(records);
      },

      async readMessages(threadId, range) {
        const parsed = inputs.readMessages.parse({
          threadId,
          from: range?.from,
          to: range?.to,
          visibility: range?.visibility,
        });
        const entry = threads.get(parsed.threadId);
        const length = entry === undefined ? 0 : lengthOf(entry);
        // Inclusive bounds clipped to the log; `to < from` (also `to: 0`) is empty.
        const from = Math.max(parsed.from ?? 1, 1);
        const to = Math.min(parsed.to ?? length, length);
        const slice = to < from || entry === undefined ? [] : readLog(entry, from, to);
        const visible =
          parsed.visibility === undefined
            ? slice
            : slice.filter((record) => record.visibility === parsed.visibility);
        return clone(visible);
      },

      async messageCount(input) {
        const { threadId } = inputs.messageCount.parse({ threadId: input });
        const entry = threads.get(threadId);
        return entry === undefined ? 0 : lengthOf(entry);
      },

      async createBranch(input) {
        const parsed = inputs.createBranch.parse(input);
        const source = requireThread(parsed.threadId);
        const seq = parsed.atSeq;
        const count = lengthOf(source);
        if (seq > count) throw seqNotFound(parsed.threadId, seq, count);
        const id = parsed.id ?? randomUUID();
        if (threads.has(id)) throw conflict(`thread ${id} already exists`, { id });
        const entry = addThread(id, parsed.metadata ?? {}, now());
        entry.base = seq;
        entry.parent = source;
        const { title } = source.thread;
        entry.thread = {
          ...entry.thread,
          ...(title === undefined ? {} : { title }),
          branchOf: { threadId: source.thread.id, seq },
        };
        source.branches.push(id);
        return clone(entry.thread);
      },

      async listBranches(threadId, query) {
        const { atSeq, ...page } = inputs.listBranches.parse({ ...query, threadId });
        const { limit, after = 0 } = pageWindow(page);
        const entries = (threads.get(page.threadId)?.branches ?? [])
          .map((id) => threads.get(id))
          .filter((entry): entry is ThreadEntry => entry !== undefined && entry.position > after)
          .filter((entry) => atSeq === undefined || entry.thread.branchOf?.seq === atSeq)
          .map((entry) => ({ position: entry.position, item: clone(entry.thread) }));
        return toPage(entries, limit);
      },

      async createRun(input) {
        const record = inputs.createRun.parse(input);
        const entry = requireThread(record.threadId);
        if (runs.has(record.runId))
          throw conflict(`run ${record.runId} already exists`, { id: record.runId });
        addRun(entry, record, { fence: 0 });
        return clone(record);
      },

      async createRunWithLease(record, input) {
        const { run, owner, leaseMs, createThread } = inputs.createRunWithLease.parse({
          run: record,
          owner: input?.owner,
          leaseMs: input?.leaseMs,
          createThread: input?.createThread,
        });
        const found = threads.get(run.threadId);
        if (found === undefined && !createThread) throw notFound('thread', run.threadId);
        if (runs.has(run.runId)) throw conflict(`run ${run.runId} already exists`, { id: run.runId });
        const at = now();
        const entry = found ?? addThread(run.threadId, {}, at);
        const lease = { runId: run.runId, owner, fence: 1, leaseUntil: at + leaseMs };
        addRun(entry, run, { fence: 1, owner, leaseUntil: lease.leaseUntil });
        return { run: clone(run), lease, threadCreated: found === undefined };
      },

      async getRun(input) {
        const { runId } = inputs.getRun.parse({ runId: input });
        const entry = runs.get(runId);
        return entry === undefined ? null : clone(entry.record);
      },

      async listRuns(threadId, query) {
        const { status, ...page } = inputs.listRuns.parse({ ...query, threadId });
        const { limit, after = Number.POSITIVE_INFINITY } = pageWindow(page);
        const runIds = threads.get(page.threadId)?.runIds ?? new Set<string>();
        const entries = [...runIds]
          .map((runId) => runs.get(runId))
          .filter((entry): entry is RunEntry => entry !== undefined && entry.position < after)
          .filter((entry) => status === undefined || status.includes(entry.record.status))
          .sort((a, b) => b.position - a.position)
          .map((entry) => ({ position: entry.position, item: clone(entry.record) }));
        return toPage(entries, limit);
      },

      async listRunsByStatus(statusInput, query) {
        const { status, ...page } = inputs.listRunsByStatus.parse({ ...query, status: statusInput });
        const { limit, after = Number.POSITIVE_INFINITY } = pageWindow(page);
        const entries = [...(byStatus.get(status) ?? [])]
          .map((runId) => runs.get(runId))
          .filter((entry): entry is RunEntry => entry !== undefined && entry.position < after)
          .sort((a, b) => b.position - a.position)
          .map((entry) => ({ position: entry.position, item: clone(entry.record) }));
        return toPage(entries, limit);
      },

      async listAllRuns(query) {
        const { status, ...page } = inputs.listAllRuns.parse({ ...query });
        const { limit, after = Number.POSITIVE_INFINITY } = pageWindow(page);
        const entries = [...(status ?? runStatusSchema.options)]
          .flatMap((each) => [...(byStatus.get(each) ?? [])])
          .map((runId) => runs.get(runId))
          .filter((entry): entry is RunEntry => entry !== undefined && entry.position < after)
          .sort((a, b) => b.position - a.position)
          .map((entry) => ({ position: entry.position, item: clone(entry.record) }));
        return toPage(entries, limit);
      },

      async commitCheckpoint(input) {
        return commitNow(inputs.commitCheckpoint.parse(input));
      },

      checkpointWithEvents(log: RunEventLog): CheckpointWithEvents | undefined {
        // offered to this store and a memory log themselves only: a wrapper of either (a test's
        // failing store, an embedder's decorator) gets the calls it wraps, one after the other
        const writes = memoryLogWrites(log);
        if (!options.jointCheckpoints || writes === undefined || this !== store) return undefined;
        const logInputs =
          inputs === threadRunStoreInputs
            ? runEventLogInputs
            : trustedStoreInputs(runEventLogInputs, jsonCopy);
        return memoryCheckpointWithEvents(writes, commitNow, {
          checkpoint: inputs.commitCheckpoint,
          append: logInputs.append,
        });
      },

      async acquireRun(input, request) {
        const { runId, ...lease } = inputs.acquireRun.parse({
          runId: input,
          owner: request?.owner,
          leaseMs: request?.leaseMs,
        });
        const entry = runs.get(runId);
        if (entry === undefined) throw notFound('run', runId);
        return acquire(runId, entry.ownership, lease, now());
      },

      // the lease, the memory log's fence and the record in one tick (nothing awaits in between)
      acquireWithFence(log) {
        const fences = memoryLogWrites(log);
        if (fences === undefined) return undefined;
        return {
          async acquireRunWithFence(input, request) {
            const { runId, ...lease } = inputs.acquireRun.parse({
              runId: input,
              owner: request?.owner,
              leaseMs: request?.leaseMs,
            });
            const entry = runs.get(runId);
            if (entry === undefined) throw notFound('run', runId);
            // granted on a copy first: a busy run and a log past this fence write nothing
            const trial = { ...entry.ownership };
            const granted = acquire(runId, trial, lease, now());
            fences.checkFence(runId, granted.fence);
            Object.assign(entry.ownership, trial);
            const lastSeq = fences.raiseFence(runId, granted.fence);
            return { lease: granted, lastSeq, run: clone(entry.record) };
          },
        };
      },

      async renewRun(input) {
        const proof = inputs.renewRun.parse(input);
        const entry = runs.get(proof.runId);
        if (entry === undefined) throw notFound('run', proof.runId);
        return renew(entry.ownership, proof, now());
      },

      async releaseRun(input) {
        const proof = inputs.releaseRun.parse(input);
        const entry = runs.get(proof.runId);
        return entry === undefined ? false : release(entry.ownership, proof);
      },
    };
    return store;
  };
  return offerTrustedView(
    build(threadRunStoreInputs),
    build(trustedStoreInputs(threadRunStoreInputs, jsonCopy)),
  );
}
