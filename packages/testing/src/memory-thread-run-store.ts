import {
  AwakenError,
  type Checkpoint,
  type MessageRecord,
  type NewMessage,
  type Page,
  type RunRecord,
  type Thread,
  type ThreadRunStore,
} from '@awaken/contract';

/**
 * A minimal in-memory ThreadRunStore for runtime tests (until @awaken/store-memory is used).
 * Records are deep-copied on the way in and out so callers can never mutate stored state.
 */
export interface MemoryThreadRunStore extends ThreadRunStore {
  /** Every checkpoint committed, in order (deep copies). */
  readonly checkpoints: Checkpoint[];
}

export function createMemoryThreadRunStore(options: { now?: () => number } = {}): MemoryThreadRunStore {
  const now = options.now ?? Date.now;
  const threads = new Map<string, Thread>();
  const threadStates = new Map<string, Record<string, unknown>>();
  const messages = new Map<string, MessageRecord[]>();
  const runs = new Map<string, RunRecord>();
  const checkpoints: Checkpoint[] = [];
  let counter = 0;

  const requireThread = (threadId: string): Thread => {
    const thread = threads.get(threadId);
    if (!thread) throw new AwakenError('not_found', `thread ${threadId} not found`);
    return thread;
  };
  const append = (threadId: string, input: NewMessage[]): MessageRecord[] => {
    const log = messages.get(threadId) ?? [];
    const records = input.map((message, index) => ({
      ...structuredClone(message),
      threadId,
      seq: log.length + index + 1,
      createdAt: now(),
    }));
    log.push(...records);
    messages.set(threadId, log);
    return structuredClone(records);
  };
  const updatePointers = (run: RunRecord) => {
    const thread = requireThread(run.threadId);
    const next = { ...thread, updatedAt: now() };
    if (run.status === 'running') next.activeRunId = run.runId;
    if (run.status === 'waiting') {
      next.openRunId = run.runId;
      if (next.activeRunId === run.runId) next.activeRunId = undefined;
    }
    if (run.status === 'done') {
      if (next.activeRunId === run.runId) next.activeRunId = undefined;
      if (next.openRunId === run.runId) next.openRunId = undefined;
    }
    threads.set(thread.id, next);
  };

  return {
    checkpoints,
    async createThread(input) {
      const id = input.id ?? `thread_${++counter}`;
      if (threads.has(id)) throw new AwakenError('conflict', `thread ${id} exists`);
      const thread: Thread = { id, metadata: input.metadata ?? {}, createdAt: now(), updatedAt: now() };
      threads.set(id, thread);
      return structuredClone(thread);
    },
    async getThread(threadId) {
      const thread = threads.get(threadId);
      return thread ? structuredClone(thread) : null;
    },
    async listThreads(): Promise<Page<Thread>> {
      return { items: structuredClone([...threads.values()]) };
    },
    async deleteThread(threadId) {
      return threads.delete(threadId);
    },
    async updateThreadMetadata(threadId, metadata) {
      const thread = { ...requireThread(threadId), metadata, updatedAt: now() };
      threads.set(threadId, thread);
      return structuredClone(thread);
    },
    async getThreadState(threadId) {
      return structuredClone(threadStates.get(threadId) ?? {});
    },
    async appendMessages(threadId, input) {
      requireThread(threadId);
      const length = messages.get(threadId)?.length ?? 0;
      if (length !== input.expectedLength) throw new AwakenError('stale_append', 'stale append');
      return append(threadId, input.messages);
    },
    async readMessages(threadId, range = {}) {
      const log = messages.get(threadId) ?? [];
      return structuredClone(
        log.filter(
          (record) =>
            record.seq >= (range.from ?? 1) &&
            record.seq <= (range.to ?? Number.POSITIVE_INFINITY) &&
            (range.visibility === undefined || record.visibility === range.visibility),
        ),
      );
    },
    async messageCount(threadId) {
      return messages.get(threadId)?.length ?? 0;
    },
    async createRun(record) {
      const thread = requireThread(record.threadId);
      if (runs.has(record.runId)) throw new AwakenError('conflict', `run ${record.runId} exists`);
      runs.set(record.runId, structuredClone(record));
      threads.set(thread.id, { ...thread, latestRunId: record.runId, updatedAt: now() });
      return structuredClone(record);
    },
    async getRun(runId) {
      const run = runs.get(runId);
      return run ? structuredClone(run) : null;
    },
    async listRuns(threadId) {
      return {
        items: structuredClone([...runs.values()].filter((run) => run.threadId === threadId).reverse()),
      };
    },
    async commitCheckpoint(checkpoint) {
      const stored = runs.get(checkpoint.run.runId);
      if (!stored) throw new AwakenError('not_found', `run ${checkpoint.run.runId} not found`);
      const length = messages.get(checkpoint.threadId)?.length ?? 0;
      if (length !== checkpoint.expectedMessageCount) throw new AwakenError('stale_append', 'stale append');
      if (checkpoint.run.version !== stored.version + 1)
        throw new AwakenError('stale_version', 'stale run version');
      append(checkpoint.threadId, checkpoint.messages);
      runs.set(checkpoint.run.runId, structuredClone(checkpoint.run));
      if (checkpoint.threadState)
        threadStates.set(checkpoint.threadId, structuredClone(checkpoint.threadState));
      updatePointers(checkpoint.run);
      checkpoints.push(structuredClone(checkpoint));
      return structuredClone(checkpoint.run);
    },
  };
}
