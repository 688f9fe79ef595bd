import {
  type JointAcquireStore,
  type JointCheckpointStore,
  type MessageRecord,
  type RunCreationWithLease,
  type RunRecord,
  type ThreadRunStore,
  jointAcquirer,
  jointCheckpointWriter,
  runCreationWithLease,
  offerTrustedView,
  trustedViewOf,
} from '@awaken/contract';

interface HotEntry {
  runId: string;
  threadId: string;
  /** The checkpoint version this copy belongs to. */
  version: number;
  messages: MessageRecord[];
  threadState: Record<string, unknown>;
}

interface Loaded {
  messages?: MessageRecord[];
  threadState?: Record<string, unknown>;
}

export interface HotRunCache {
  /**
   * The store the runtime reads and writes through. It offers the trusted view (`trustedViewOf`) of
   * the store it wraps, wrapped alike: the runtime's checkpoints take the inner store's trusted path.
   */
  readonly store: ThreadRunStore;
  has(runId: string): boolean;
  size(): number;
  readonly hits: number;
  readonly misses: number;
}

/** The inner store's joint creation (a new run caches nothing), offered only when it offers one. */
function creationOf(inner: ThreadRunStore): Partial<RunCreationWithLease> {
  const joint = runCreationWithLease(inner);
  return joint ? { createRunWithLease: (record, input) => joint.createRunWithLease(record, input) } : {};
}

/** A Map used as an LRU: re-inserting moves a key to the end; the first key is the oldest. */
function touch<K, V>(map: Map<K, V>, key: K, value: V, capacity: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > capacity) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}

/**
 * Keeps the loaded history and thread state of recently suspended runs (at most `capacity`), so
 * the process that claims a resume can skip reading them. The cached copy is used only when the
 * run's stored checkpoint version equals the copy's (the run record itself is always read from the
 * store); otherwise the run is loaded cold. The message log is append-only, so the copy is brought
 * up to date by reading only the messages after it. Beyond the cache a waiting run costs nothing.
 *
 * The cache is built over both paths of `inner` with one state: `store` calls `inner` itself (every
 * input parsed), and the trusted view it offers calls `trustedViewOf(inner)`, so the runtime, which
 * takes that view, skips the parse of its own records exactly as it would on `inner` alone.
 */
export function createHotRunCache(inner: ThreadRunStore, capacity: number): HotRunCache {
  const entries = new Map<string, HotEntry>();
  /** What the last load of each thread read, kept until its run suspends or ends. */
  const loaded = new Map<string, Loaded>();
  /** Threads whose next history / state read may be served from a validated entry. */
  const armed = new Map<string, HotEntry>();
  const scratchCapacity = Math.max(64, capacity);
  let hits = 0;
  let misses = 0;

  const remember = (threadId: string, patch: Loaded) =>
    touch(loaded, threadId, { ...loaded.get(threadId), ...patch }, scratchCapacity);

  const dropThread = (threadId: string) => {
    armed.delete(threadId);
    loaded.delete(threadId);
    for (const [runId, entry] of entries) if (entry.threadId === threadId) entries.delete(runId);
  };

  function afterCheckpoint(record: RunRecord, threadState: Record<string, unknown> | undefined): void {
    armed.delete(record.threadId);
    // a suspension writes two waiting checkpoints (tool results, then run_finished): keep the copy
    const previous = entries.get(record.runId);
    entries.delete(record.runId);
    const scratch = loaded.get(record.threadId);
    if (record.status === 'running') {
      if (threadState && scratch) scratch.threadState = threadState;
      return;
    }
    loaded.delete(record.threadId);
    const messages = scratch?.messages ?? previous?.messages;
    const state = threadState ?? scratch?.threadState ?? previous?.threadState;
    if (record.status !== 'waiting' || capacity === 0 || !messages || !state) return;
    const entry = {
      runId: record.runId,
      threadId: record.threadId,
      version: record.version,
      messages,
      threadState: state,
    };
    touch(entries, record.runId, entry, capacity);
  }

  /** A run record read from the store: arms its thread's entry when the entry is still current. */
  function seen(record: RunRecord): RunRecord {
    armed.delete(record.threadId);
    const entry = entries.get(record.runId);
    if (!entry) return record;
    // (a load may read the record twice, e.g. again once it holds the run's lease)
    if (record.version === entry.version && record.threadId === entry.threadId) {
      armed.set(entry.threadId, entry);
    } else {
      entries.delete(record.runId);
      misses += 1;
    }
    return record;
  }

  /** The cache over one path of the inner store (`inner` here is that path). */
  const over = (inner: ThreadRunStore): JointCheckpointStore & JointAcquireStore => ({
    ...creationOf(inner),
    createThread: (input) => inner.createThread(input),
    getThread: (threadId) => inner.getThread(threadId),
    listThreads: (page) => inner.listThreads(page),
    async deleteThread(threadId) {
      dropThread(threadId);
      return inner.deleteThread(threadId);
    },
    updateThreadMetadata: (threadId, metadata) => inner.updateThreadMetadata(threadId, metadata),
    async getThreadState(threadId) {
      const entry = armed.get(threadId);
      if (entry) {
        remember(threadId, { threadState: entry.threadState });
        return structuredClone(entry.threadState);
      }
      const state = await inner.getThreadState(threadId);
      if (capacity > 0) remember(threadId, { threadState: structuredClone(state) });
      return state;
    },
    appendMessages: (threadId, input) => inner.appendMessages(threadId, input),
    async readMessages(threadId, range) {
      const whole =
        range === undefined || (range.from === undefined && range.to === undefined && !range.visibility);
      if (!whole) return inner.readMessages(threadId, range);
      const entry = armed.get(threadId);
      if (entry) {
        hits += 1;
        const delta = await inner.readMessages(threadId, { from: entry.messages.length + 1 });
        const messages = [...entry.messages, ...delta];
        remember(threadId, { messages });
        return structuredClone(messages);
      }
      const messages = await inner.readMessages(threadId);
      if (capacity > 0) remember(threadId, { messages: structuredClone(messages) });
      return messages;
    },
    messageCount: (threadId) => inner.messageCount(threadId),
    createRun: (record) => inner.createRun(record),
    listRunsByStatus: (status, page) => inner.listRunsByStatus(status, page),
    listAllRuns: (query) => inner.listAllRuns(query),
    async getRun(runId) {
      const record = await inner.getRun(runId);
      return record ? seen(record) : record;
    },
    // the inner store's joint acquisition (lease, log fence, record): its record seen like getRun's
    acquireWithFence(log) {
      const joint = jointAcquirer(inner, log);
      if (!joint) return undefined;
      return {
        async acquireRunWithFence(runId, input) {
          const taken = await joint.acquireRunWithFence(runId, input);
          seen(taken.run);
          return taken;
        },
      };
    },
    listRuns: (threadId, query) => inner.listRuns(threadId, query),
    acquireRun: (runId, input) => inner.acquireRun(runId, input),
    renewRun: (proof) => inner.renewRun(proof),
    releaseRun: (proof) => inner.releaseRun(proof),
    async commitCheckpoint(checkpoint) {
      const stored = await inner.commitCheckpoint(checkpoint);
      afterCheckpoint(stored, checkpoint.threadState);
      return stored;
    },
    // the inner store's joint write (events + checkpoint in one call), seen by the cache like a checkpoint
    checkpointWithEvents(log) {
      const joint = jointCheckpointWriter(inner, log);
      if (!joint) return undefined;
      return {
        async commitCheckpointWithEvents(checkpoint, events) {
          const outcome = await joint.commitCheckpointWithEvents(checkpoint, events);
          if (outcome.status === 'committed') afterCheckpoint(outcome.run, checkpoint.threadState);
          return outcome;
        },
      };
    },
  });

  const store = over(inner);
  const trusted = trustedViewOf(inner);
  if (trusted !== inner) offerTrustedView(store, over(trusted));

  return {
    store,
    has: (runId) => entries.has(runId),
    size: () => entries.size,
    get hits() {
      return hits;
    },
    get misses() {
      return misses;
    },
  };
}
