import { randomUUID } from 'node:crypto';
import {
  AwakenError,
  type Checkpoint,
  type CreateThreadInput,
  type MessageRecord,
  type NewMessage,
  type Page,
  type PageRequest,
  type RunRecord,
  type RunStatus,
  type Thread,
  type ThreadRunStore,
  type Visibility,
  canTransitionRunStatus,
  newMessageSchema,
  parseWith,
  runRecordSchema,
} from '@awaken/contract';
import { clone } from './internal/clone';
import { type MemoryStoreOptions, storeClock } from './internal/clock';
import { conflict, notFound } from './internal/errors';
import { decodeCursor, pageLimit, toPage } from './internal/paging';
import {
  type RunOwnership,
  acquire,
  checkFence,
  parseProof,
  release,
  renew,
} from './internal/run-lease-state';
import { pointersAfterCheckpoint } from './internal/thread-pointers';

interface ThreadEntry {
  position: number;
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
 * concurrent writers with the same expected version / message count see exactly one succeed. Records
 * are copied in and out; inputs are validated with the contract's zod schemas (`validation_failed`).
 * Run leases are timed on this store's clock (`options.now`). Nothing survives the process.
 */
export function createMemoryThreadRunStore(options: MemoryStoreOptions = {}): ThreadRunStore {
  const now = storeClock(options);
  const threads = new Map<string, ThreadEntry>();
  const runs = new Map<string, RunEntry>();
  let nextPosition = 1;

  const requireThread = (threadId: string): ThreadEntry => {
    const entry = threads.get(threadId);
    if (entry === undefined) throw notFound('thread', threadId);
    return entry;
  };

  const toRecords = (entry: ThreadEntry, messages: NewMessage[]): MessageRecord[] => {
    const createdAt = now();
    return messages.map((message, index) => ({
      ...parseWith(newMessageSchema, message, 'message'),
      threadId: entry.thread.id,
      seq: entry.messages.length + index + 1,
      createdAt,
    }));
  };

  const expectLength = (entry: ThreadEntry, expected: number): void => {
    if (entry.messages.length !== expected) {
      throw new AwakenError(
        'stale_append',
        `thread ${entry.thread.id} has ${entry.messages.length} messages, the writer expected ${expected}`,
        { details: { threadId: entry.thread.id, actual: entry.messages.length, expected } },
      );
    }
  };

  return {
    async createThread(input: CreateThreadInput): Promise<Thread> {
      const id = input.id ?? randomUUID();
      if (id.length === 0) throw new AwakenError('validation_failed', 'thread id must not be empty');
      if (threads.has(id)) throw conflict(`thread ${id} already exists`, { id });
      const at = now();
      const thread: Thread = { id, metadata: clone(input.metadata ?? {}), createdAt: at, updatedAt: at };
      threads.set(id, { position: nextPosition++, thread, messages: [], state: {}, runIds: new Set() });
      return clone(thread);
    },

    async getThread(threadId) {
      const entry = threads.get(threadId);
      return entry === undefined ? null : clone(entry.thread);
    },

    async listThreads(page?: PageRequest): Promise<Page<Thread>> {
      const limit = pageLimit(page);
      const after = decodeCursor(page?.cursor) ?? 0;
      const entries = [...threads.values()]
        .filter((entry) => entry.position > after)
        .map((entry) => ({ position: entry.position, item: clone(entry.thread) }));
      return toPage(entries, limit);
    },

    async deleteThread(threadId) {
      const entry = threads.get(threadId);
      if (entry === undefined) return false;
      for (const runId of entry.runIds) runs.delete(runId);
      threads.delete(threadId);
      return true;
    },

    async updateThreadMetadata(threadId, metadata) {
      const entry = requireThread(threadId);
      entry.thread = { ...entry.thread, metadata: clone(metadata), updatedAt: now() };
      return clone(entry.thread);
    },

    async getThreadState(threadId) {
      return clone(threads.get(threadId)?.state ?? {});
    },

    async appendMessages(threadId, input) {
      const entry = requireThread(threadId);
      expectLength(entry, input.expectedLength);
      const records = toRecords(entry, input.messages);
      entry.messages.push(...records);
      return clone(records);
    },

    async readMessages(threadId, range?: { from?: number; to?: number; visibility?: Visibility }) {
      const messages = threads.get(threadId)?.messages ?? [];
      const from = Math.max(range?.from ?? 1, 1);
      const to = Math.min(range?.to ?? messages.length, messages.length);
      const slice = messages.slice(from - 1, Math.max(to, from - 1));
      const visible =
        range?.visibility === undefined
          ? slice
          : slice.filter((record) => record.visibility === range.visibility);
      return clone(visible);
    },

    async messageCount(threadId) {
      return threads.get(threadId)?.messages.length ?? 0;
    },

    async createRun(input: RunRecord): Promise<RunRecord> {
      const record = parseWith(runRecordSchema, input, 'run record');
      if (record.version !== 0) {
        throw new AwakenError('validation_failed', `a new run must have version 0, got ${record.version}`);
      }
      const entry = requireThread(record.threadId);
      if (runs.has(record.runId)) throw conflict(`run ${record.runId} already exists`, { id: record.runId });
      runs.set(record.runId, { position: nextPosition++, record: clone(record), ownership: { fence: 0 } });
      entry.runIds.add(record.runId);
      entry.thread = { ...entry.thread, latestRunId: record.runId, updatedAt: now() };
      return clone(record);
    },

    async getRun(runId) {
      const entry = runs.get(runId);
      return entry === undefined ? null : clone(entry.record);
    },

    async listRuns(threadId, query?: PageRequest & { status?: RunStatus[] }) {
      const limit = pageLimit(query);
      const before = decodeCursor(query?.cursor) ?? Number.POSITIVE_INFINITY;
      const runIds = threads.get(threadId)?.runIds ?? new Set<string>();
      const entries = [...runIds]
        .map((runId) => runs.get(runId))
        .filter((entry): entry is RunEntry => entry !== undefined && entry.position < before)
        .filter((entry) => query?.status === undefined || query.status.includes(entry.record.status))
        .sort((a, b) => b.position - a.position)
        .map((entry) => ({ position: entry.position, item: clone(entry.record) }));
      return toPage(entries, limit);
    },

    async commitCheckpoint(checkpoint: Checkpoint): Promise<RunRecord> {
      const run = parseWith(runRecordSchema, checkpoint.run, 'checkpoint run record');
      const thread = requireThread(checkpoint.threadId);
      if (run.threadId !== checkpoint.threadId) {
        throw new AwakenError(
          'validation_failed',
          `run ${run.runId} belongs to thread ${run.threadId}, not ${checkpoint.threadId}`,
        );
      }
      const stored = runs.get(run.runId);
      if (stored === undefined) throw notFound('run', run.runId);
      checkFence(run.runId, stored.ownership, checkpoint.fence);
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
      const records = toRecords(thread, checkpoint.messages);
      const threadState = checkpoint.threadState === undefined ? thread.state : clone(checkpoint.threadState);
      const record = clone(run);
      // Everything that can throw ran above; the writes below cannot, so the step is all-or-nothing.
      thread.messages.push(...records);
      stored.record = record;
      thread.state = threadState;
      thread.thread = { ...pointersAfterCheckpoint(thread.thread, run), updatedAt: now() };
      return clone(run);
    },

    async acquireRun(runId, input) {
      const entry = runs.get(runId);
      if (entry === undefined) throw notFound('run', runId);
      return acquire(runId, entry.ownership, input, now());
    },

    async renewRun(proof) {
      const lease = parseProof(proof, 'renewRun proof');
      const entry = runs.get(lease.runId);
      if (entry === undefined) throw notFound('run', lease.runId);
      return renew(entry.ownership, { ...lease, leaseMs: proof.leaseMs }, now());
    },

    async releaseRun(proof) {
      const lease = parseProof(proof, 'releaseRun proof');
      const entry = runs.get(lease.runId);
      return entry === undefined ? false : release(entry.ownership, lease);
    },
  };
}
