import { AwakenError, type RunRecord, type ThreadRunStore } from '@awaken/contract';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../../../test-support/harness';

/** A memory store whose thread and run creations are logged with their outcome, in the order they settle. */
function loggedStore(options: { threadLate?: boolean } = {}) {
  const inner = createMemoryThreadRunStore();
  const calls: string[] = [];
  const store: ThreadRunStore = Object.create(inner);
  const log = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    try {
      const result = await work();
      calls.push(`${name} ok`);
      return result;
    } catch (error) {
      calls.push(`${name} ${AwakenError.isInstance(error) ? error.code : 'error'}`);
      throw error;
    }
  };
  // a store that lands the thread's write after the run's (a later message): the thread waits for the
  // first run write to settle
  let runSettled = () => {};
  const firstRunWrite = new Promise<void>((resolve) => {
    runSettled = resolve;
  });
  store.createThread = (input) =>
    log('createThread', async () => {
      if (options.threadLate) await firstRunWrite;
      return inner.createThread(input);
    });
  store.createRun = (record: RunRecord) =>
    log('createRun', () => inner.createRun(record)).finally(() => runSettled());
  return { store, inner, calls };
}

describe('runtime.createRun with the newThread hint (the caller just read the thread absent)', () => {
  it('writes the thread and the run side by side: no refused run write first', async () => {
    const { store, calls } = loggedStore();
    const { runtime } = createHarness({}, { store });
    const record = await runtime.createRun({
      agentId: 'agent',
      runId: 'r1',
      threadId: 't1',
      input: 'hi',
      newThread: true,
    });
    expect(record).toMatchObject({ runId: 'r1', threadId: 't1', status: 'created' });
    expect(calls.sort()).toEqual(['createRun ok', 'createThread ok']);
    expect((await store.getThread('t1'))?.latestRunId).toBe('r1');
  });

  it('without the hint, a new thread still costs the refused run write (the write-first path)', async () => {
    const { store, calls } = loggedStore();
    const { runtime } = createHarness({}, { store });
    await runtime.createRun({ agentId: 'agent', runId: 'r1', threadId: 't1', input: 'hi' });
    expect(calls).toEqual(['createRun not_found', 'createThread ok', 'createRun ok']);
  });

  it('uses a thread created meanwhile as it is (the hint is only a hint)', async () => {
    const { store, inner, calls } = loggedStore();
    await inner.createThread({ id: 't1', metadata: { owner: 'someone' } });
    const { runtime } = createHarness({}, { store });
    await runtime.createRun({ agentId: 'agent', runId: 'r1', threadId: 't1', input: 'hi', newThread: true });
    expect(calls.sort()).toEqual(['createRun ok', 'createThread conflict']);
    expect(await store.getThread('t1')).toMatchObject({ metadata: { owner: 'someone' }, latestRunId: 'r1' });
  });

  it('writes the run again when the store refused it before the thread landed', async () => {
    const { store, calls } = loggedStore({ threadLate: true });
    const { runtime } = createHarness({}, { store });
    await runtime.createRun({ agentId: 'agent', runId: 'r1', threadId: 't1', input: 'hi', newThread: true });
    expect(calls).toEqual(['createRun not_found', 'createThread ok', 'createRun ok']);
    expect((await store.getRun('r1'))?.status).toBe('created');
  });

  it('refuses a run id that exists, as without the hint', async () => {
    const { store } = loggedStore();
    const { runtime } = createHarness({}, { store });
    await runtime.createRun({ agentId: 'agent', runId: 'r1', threadId: 't1', input: 'hi' });
    await expect(
      runtime.createRun({ agentId: 'agent', runId: 'r1', threadId: 't2', input: 'hi', newThread: true }),
    ).rejects.toMatchObject({ code: 'conflict' });
  });

  it('refuses a hint that is not a boolean, naming the field', async () => {
    const { runtime } = createHarness({});
    await expect(
      runtime.createRun({ agentId: 'agent', threadId: 't1', newThread: 'yes' as unknown as boolean }),
    ).rejects.toMatchObject({ code: 'validation_failed', details: { field: 'newThread' } });
  });
});
