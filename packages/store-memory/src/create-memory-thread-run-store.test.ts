import {
  AwakenError,
  type RunRecord,
  type ThreadRunStore,
  runRecordSchema,
  threadSchema,
} from '@awaken/contract';
import {
  type ManualClock,
  createManualClock,
  describeThreadRunStoreConformance,
} from '@awaken/store-conformance';
import { describe, expect, it } from 'vitest';
import { createMemoryThreadRunStore } from './create-memory-thread-run-store';

const newRun = (runId: string, threadId: string): RunRecord => ({
  runId,
  threadId,
  agentId: 'agent',
  origin: 'user',
  status: 'created',
  steps: 0,
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  state: {},
  version: 0,
  createdAt: 1,
  updatedAt: 1,
});

const userMessage = (content: string) => ({
  visibility: 'external' as const,
  message: { role: 'user' as const, content },
});

describe('createMemoryThreadRunStore', () => {
  it('creates a thread and rejects a second thread with the same id', async () => {
    const store = createMemoryThreadRunStore();
    const thread = await store.createThread({ id: 't1', metadata: { title: 'x' } });
    expect(threadSchema.parse(thread)).toEqual(thread);
    await expect(store.createThread({ id: 't1' })).rejects.toSatisfy((error) =>
      AwakenError.hasCode(error, 'conflict'),
    );
  });

  it('rejects an append whose expected length is stale and writes nothing', async () => {
    const store = createMemoryThreadRunStore();
    await store.createThread({ id: 't1' });
    const [first] = await store.appendMessages('t1', { expectedLength: 0, messages: [userMessage('a')] });
    expect(first?.seq).toBe(1);
    await expect(
      store.appendMessages('t1', { expectedLength: 0, messages: [userMessage('b')] }),
    ).rejects.toSatisfy((error) => AwakenError.hasCode(error, 'stale_append'));
    expect(await store.messageCount('t1')).toBe(1);
  });

  it('commits a checkpoint atomically with the pointers and rejects a stale version', async () => {
    const store = createMemoryThreadRunStore();
    await store.createThread({ id: 't1' });
    await store.createRun(newRun('r1', 't1'));
    const running = { ...newRun('r1', 't1'), status: 'running' as const, version: 1 };
    await store.commitCheckpoint({
      trigger: 'user_message',
      threadId: 't1',
      expectedMessageCount: 0,
      messages: [userMessage('hi')],
      run: running,
    });
    expect(await store.getThread('t1')).toMatchObject({ activeRunId: 'r1', latestRunId: 'r1' });
    await expect(
      store.commitCheckpoint({
        trigger: 'run_finished',
        threadId: 't1',
        expectedMessageCount: 1,
        messages: [userMessage('again')],
        run: { ...running, status: 'done' },
      }),
    ).rejects.toSatisfy((error) => AwakenError.hasCode(error, 'stale_version'));
    expect(await store.messageCount('t1')).toBe(1);
    const stored = await store.getRun('r1');
    expect(runRecordSchema.parse(stored)).toMatchObject({ status: 'running', version: 1 });
  });

  it('moves the open pointer to a waiting run and clears both when it is done', async () => {
    const store = createMemoryThreadRunStore();
    await store.createThread({ id: 't1' });
    await store.createRun(newRun('r1', 't1'));
    const base = { trigger: 'tool_results_committed' as const, threadId: 't1', messages: [] };
    await store.commitCheckpoint({
      ...base,
      expectedMessageCount: 0,
      run: { ...newRun('r1', 't1'), status: 'running', version: 1 },
    });
    await store.commitCheckpoint({
      ...base,
      expectedMessageCount: 0,
      run: { ...newRun('r1', 't1'), status: 'waiting', version: 2 },
    });
    const waiting = await store.getThread('t1');
    expect(waiting?.openRunId).toBe('r1');
    expect(waiting?.activeRunId).toBeUndefined();
    await store.commitCheckpoint({
      ...base,
      expectedMessageCount: 0,
      run: { ...newRun('r1', 't1'), status: 'done', version: 3 },
    });
    const done = await store.getThread('t1');
    expect(done?.openRunId).toBeUndefined();
    expect(done?.activeRunId).toBeUndefined();
  });
});

describeThreadRunStoreConformance({
  name: 'memory',
  async create() {
    return createMemoryThreadRunStore();
  },
});

const clocks = new WeakMap<ThreadRunStore, ManualClock>();

describeThreadRunStoreConformance({
  name: 'memory (manual clock)',
  async create() {
    const clock = createManualClock();
    const store = createMemoryThreadRunStore({ now: clock.now });
    clocks.set(store, clock);
    return store;
  },
  clock: {
    async advance(store, ms) {
      clocks.get(store)?.advance(ms);
    },
  },
});
