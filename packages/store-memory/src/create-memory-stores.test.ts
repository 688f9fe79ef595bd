import {
  type ManualClock,
  type RunScopedStores,
  createManualClock,
  describeAcquireWithFenceConformance,
  describeCheckpointWithEventsConformance,
  describeRunExpiryConformance,
} from '@awaken/store-conformance';
import { describe, expect, it } from 'vitest';
import { createMemoryStores } from './create-memory-stores';

describe('createMemoryStores', () => {
  it('returns four working stores that share the given clock', async () => {
    let now = 1_000;
    const stores = createMemoryStores({ now: () => now });
    const thread = await stores.threadRuns.createThread({});
    expect(thread.createdAt).toBe(1_000);
    now = 2_000;
    expect(await stores.mailbox.now()).toBe(2_000);
    await stores.eventLog.finish('run-1', { ttlMs: 10 });
    now = 2_010;
    expect(await stores.eventLog.isFinished('run-1')).toBe(false);
    expect(await stores.inbox.put('run-1', { kind: 'cancel', id: 'x1', at: 1 })).toBe('stored');
  });

  it('never lets a caller mutate stored records through objects it passed in or got back', async () => {
    const { threadRuns, mailbox, eventLog } = createMemoryStores();
    const metadata = { title: 'original' };
    const thread = await threadRuns.createThread({ metadata });
    metadata.title = 'changed by caller';
    thread.metadata.title = 'changed through result';
    expect((await threadRuns.getThread(thread.id))?.metadata).toEqual({ title: 'original' });

    const dispatch = await mailbox.enqueue({ threadId: thread.id, runId: 'run-1' });
    dispatch.status = 'acked';
    expect((await mailbox.loadDispatch(dispatch.dispatchId))?.status).toBe('queued');

    const event = { type: 'text_delta' as const, runId: 'run-1', seq: 1, at: 1, messageId: 'm', delta: 'a' };
    await eventLog.append('run-1', [event]);
    event.delta = 'changed';
    const [read] = await eventLog.read('run-1');
    expect(read).toMatchObject({ delta: 'a' });
  });
});

describe('createMemoryRunEventLog', () => {
  it('drops a finished log after its TTL on the shared clock and keeps a fresh one', async () => {
    let now = 0;
    const { eventLog } = createMemoryStores({ now: () => now });
    const event = (runId: string) => ({
      type: 'text_delta' as const,
      runId,
      seq: 1,
      at: 1,
      messageId: 'm',
      delta: 'a',
    });
    await eventLog.append('old', [event('old')]);
    await eventLog.finish('old', { ttlMs: 100 });
    now = 5_000;
    await eventLog.append('new', [event('new')]);
    await eventLog.finish('new', { ttlMs: 100 });
    expect(await eventLog.lastSeq('new')).toBe(1);
    expect(await eventLog.lastSeq('old')).toBe(0);
  });
});

const storeClocks = new WeakMap<RunScopedStores, ManualClock>();

describeRunExpiryConformance({
  name: 'memory (createMemoryStores)',
  async create() {
    const clock = createManualClock();
    const stores = createMemoryStores({ now: clock.now });
    const scoped = { eventLog: stores.eventLog, inbox: stores.inbox };
    storeClocks.set(scoped, clock);
    return scoped;
  },
  clock: {
    async advance(stores, ms) {
      storeClocks.get(stores)?.advance(ms);
    },
  },
});

describeCheckpointWithEventsConformance({
  name: 'memory (createMemoryStores)',
  async create() {
    const stores = createMemoryStores({ jointCheckpoints: true });
    return { threadRuns: stores.threadRuns, eventLog: stores.eventLog };
  },
});

describeAcquireWithFenceConformance({
  name: 'memory (createMemoryStores)',
  async create() {
    const stores = createMemoryStores();
    return { threadRuns: stores.threadRuns, eventLog: stores.eventLog };
  },
});
