import {
  type ManualClock,
  type RunScopedStores,
  createManualClock,
  describeRunExpiryConformance,
} from '@awaken/store-conformance';
import { describe, expect, it } from 'vitest';
import { createMemoryStores } from './create-memory-stores';

describe('createMemoryStores', () => {
  it('returns four working stores that share the given clock', async () => {
    let now = 1_000;
    const stores = createMemoryStores({ now: () => now });
    const thread = await stores.threadRunStore.createThread({});
    expect(thread.createdAt).toBe(1_000);
    now = 2_000;
    expect(await stores.mailboxStore.now()).toBe(2_000);
    await stores.runEventLog.finish('run-1', { ttlMs: 10 });
    now = 2_010;
    expect(await stores.runEventLog.isFinished('run-1')).toBe(false);
    expect(await stores.controlInbox.put('run-1', { kind: 'cancel', id: 'x1', at: 1 })).toBe('stored');
  });

  it('never lets a caller mutate stored records through objects it passed in or got back', async () => {
    const { threadRunStore, mailboxStore, runEventLog } = createMemoryStores();
    const metadata = { title: 'original' };
    const thread = await threadRunStore.createThread({ metadata });
    metadata.title = 'changed by caller';
    thread.metadata.title = 'changed through result';
    expect((await threadRunStore.getThread(thread.id))?.metadata).toEqual({ title: 'original' });

    const dispatch = await mailboxStore.enqueue({ threadId: thread.id, runId: 'run-1' });
    dispatch.status = 'acked';
    expect((await mailboxStore.loadDispatch(dispatch.dispatchId))?.status).toBe('queued');

    const event = { type: 'text_delta' as const, runId: 'run-1', seq: 1, at: 1, messageId: 'm', delta: 'a' };
    await runEventLog.append('run-1', [event]);
    event.delta = 'changed';
    const [read] = await runEventLog.read('run-1');
    expect(read).toMatchObject({ delta: 'a' });
  });
});

describe('createMemoryRunEventLog', () => {
  it('drops a finished log after its TTL on the shared clock and keeps a fresh one', async () => {
    let now = 0;
    const { runEventLog } = createMemoryStores({ now: () => now });
    const event = (runId: string) => ({
      type: 'text_delta' as const,
      runId,
      seq: 1,
      at: 1,
      messageId: 'm',
      delta: 'a',
    });
    await runEventLog.append('old', [event('old')]);
    await runEventLog.finish('old', { ttlMs: 100 });
    now = 5_000;
    await runEventLog.append('new', [event('new')]);
    await runEventLog.finish('new', { ttlMs: 100 });
    expect(await runEventLog.lastSeq('new')).toBe(1);
    expect(await runEventLog.lastSeq('old')).toBe(0);
  });
});

const storeClocks = new WeakMap<RunScopedStores, ManualClock>();

describeRunExpiryConformance({
  name: 'memory (createMemoryStores)',
  async create() {
    const clock = createManualClock();
    const stores = createMemoryStores({ now: clock.now });
    const scoped = { eventLog: stores.runEventLog, inbox: stores.controlInbox };
    storeClocks.set(scoped, clock);
    return scoped;
  },
  clock: {
    async advance(stores, ms) {
      storeClocks.get(stores)?.advance(ms);
    },
  },
});
