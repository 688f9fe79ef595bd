import { randomUUID } from 'node:crypto';
import {
  AwakenError,
  type MessageRecord,
  type NewMessage,
  type RunCreationWithLease,
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
import { type MemoryStoreOptions, storeClock } from './internal/clock';
import { conflict, notFound } from './internal/errors';
import { pageWindow, toPage } from './internal/paging';
import { type RunOwnership, acquire, checkFence, release, renew } from './internal/run-lease-state';

interface ThreadEntry {
  position: number;
  /** When the thread was last written, as a sequence number (the `newest` order). */
  written: number;
  thread: Thread;
  messages: MessageRecord[];
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
 * It offers the contract's `RunCreationWithLease` (`runCreationWithLease(store)` finds it).
 * Nothing survives the process.
 */
export function createMemoryThreadRunStore(options: MemoryStoreOptions = {}): ThreadRunStore {
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
      seq: entry.messages.length + index + 1,
      createdAt,
    }));

  const expectLength = (entry: ThreadEntry, expected: number): void => {
    if (entry.messages.length !== expected) {
      throw new AwakenError(
        'stale_append',
        `thread ${entry.thread.id} has ${entry.messages.length} messages, the writer expected ${expected}`,
        { details: { threadId: entry.thread.id, actual: entry.messages.length, expected } },
      );
    }
  };

  /** Appends without a spread, so a batch of any size fits (no argument-count limit). */
  const appendAll = (entry: ThreadEntry, records: MessageRecord[]): void => {
    for (const record of records) entry.messages.push(record);
  };

  const build = (inputs: typeof threadRunStoreInputs): ThreadRunStore & RunCreationWithLease => ({
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
      const messages = threads.get(parsed.threadId)?.messages ?? [];
      // Inclusive bounds clipped to the log; `to < from` (also `to: 0`) is empty.
      const from = Math.max(parsed.from ?? 1, 1);
      const to = Math.min(parsed.to ?? messages.length, messages.length);
      const slice = to < from ? [] : messages.slice(from - 1, to);
      const visible =
        parsed.visibility === undefined
          ? slice
          : slice.filter((record) => record.visibility === parsed.visibility);
      return clone(visible);
    },

    async messageCount(input) {
      const { threadId } = inputs.messageCount.parse({ threadId: input });
      return threads.get(threadId)?.messages.length ?? 0;
    },

    async createRun(input) {
      const record = inputs.createRun.parse(input);
      const entry = requireThread(record.threadId);
      if (runs.has(record.runId)) throw conflict(`run ${record.runId} already exists`, { id: record.runId });
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
      const checkpoint = inputs.commitCheckpoint.parse(input);
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
  });
  return offerTrustedView(
    build(threadRunStoreInputs),
    build(trustedStoreInputs(threadRunStoreInputs, jsonCopy)),
  );
}
