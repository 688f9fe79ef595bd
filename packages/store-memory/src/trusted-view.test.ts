import {
  AwakenError,
  type NewMessage,
  type RunRecord,
  runEventLogInputs,
  threadRunStoreInputs,
  trustedViewOf,
} from '@awaken/contract';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRunEventLog } from './create-memory-run-event-log';
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

const said = (content: string): NewMessage => ({
  visibility: 'external',
  message: { role: 'user', content },
});

async function storeWithRun() {
  const store = createMemoryThreadRunStore({ now: () => 5 });
  await store.createThread({ id: 't' });
  await store.createRun(newRun('r', 't'));
  return store;
}

const checkpointOf = (state: Record<string, unknown>, messages: NewMessage[]) => ({
  trigger: 'assistant_turn_committed' as const,
  threadId: 't',
  expectedMessageCount: 0,
  messages,
  run: { ...newRun('r', 't'), status: 'running' as const, version: 1, state },
});

afterEach(() => vi.restoreAllMocks());

describe('the memory stores’ trusted view', () => {
  it('skips the input parse on the trusted path; the store itself still parses every call', async () => {
    const store = await storeWithRun();
    const parse = vi.spyOn(threadRunStoreInputs.commitCheckpoint, 'parse');
    const view = trustedViewOf(store);
    expect(view).not.toBe(store);

    await view.commitCheckpoint(checkpointOf({ a: 1 }, [said('hi')]));
    expect(parse).not.toHaveBeenCalled();
    await store.commitCheckpoint({
      ...checkpointOf({ a: 2 }, []),
      expectedMessageCount: 1,
      run: { ...checkpointOf({ a: 2 }, []).run, version: 2 },
    });
    expect(parse).toHaveBeenCalledTimes(1);
    // both paths write the same data: the view is the same store
    expect((await store.getRun('r'))?.state).toEqual({ a: 2 });
    expect((await view.readMessages('t')).map((record) => record.message)).toEqual([said('hi').message]);
  });

  it('rejects a caller mistake through the public store: validation_failed, nothing written', async () => {
    const store = await storeWithRun();
    trustedViewOf(store); // asking for the view changes nothing for the store's own callers
    const bad = checkpointOf({ big: 10n }, [said('hi')]);
    await expect(store.commitCheckpoint(bad)).rejects.toSatisfy(
      (error) => AwakenError.isInstance(error) && error.code === 'validation_failed',
    );
    const log = createMemoryRunEventLog();
    trustedViewOf(log);
    await expect(log.append('r', [{ type: 'nonsense' } as never])).rejects.toSatisfy(
      (error) => AwakenError.isInstance(error) && error.code === 'validation_failed',
    );
    expect(await store.getRun('r')).toEqual(newRun('r', 't'));
    expect(await store.messageCount('t')).toBe(0);
    expect(await log.lastSeq('r')).toBe(0);
  });

  it('refuses a `__proto__` state key through the public store (zod would drop it): nothing written', async () => {
    const store = await storeWithRun();
    const state = JSON.parse('{"__proto__":[1],"kept":2}') as Record<string, unknown>;
    await expect(store.commitCheckpoint(checkpointOf(state, [said('hi')]))).rejects.toSatisfy(
      (error) =>
        AwakenError.isInstance(error) &&
        error.code === 'validation_failed' &&
        error.message.includes('__proto__'),
    );
    expect(await store.getRun('r')).toEqual(newRun('r', 't'));
    expect(await store.messageCount('t')).toBe(0);
  });

  it('keeps a caller-value operation validating on the trusted path too', async () => {
    const view = trustedViewOf(createMemoryThreadRunStore());
    await expect(view.createThread({ id: 't', metadata: { n: 1n } })).rejects.toSatisfy(
      (error) => AwakenError.isInstance(error) && error.code === 'validation_failed',
    );
    expect(await view.getThread('t')).toBeNull();
  });

  it('protects stored data from later mutation of what the runtime passed (one copy)', async () => {
    const store = await storeWithRun();
    const checkpoint = checkpointOf({ nested: { list: [1, 2] } }, [said('hi')]);
    const events = [{ type: 'state_snapshot' as const, runId: 'r', state: { n: [1] }, seq: 1, at: 1 }];
    const log = createMemoryRunEventLog();
    const parseAppend = vi.spyOn(runEventLogInputs.append, 'parse');
    await trustedViewOf(store).commitCheckpoint(checkpoint);
    await trustedViewOf(log).append('r', events as never);
    expect(parseAppend).not.toHaveBeenCalled();
    (checkpoint.run.state.nested as { list: number[] }).list.push(3);
    (checkpoint.messages[0]?.message as { content: string }).content = 'changed';
    events[0]?.state.n.push(2);
    expect((await store.getRun('r'))?.state).toEqual({ nested: { list: [1, 2] } });
    expect((await store.readMessages('t'))[0]?.message).toEqual(said('hi').message);
    expect((await log.read('r'))[0]).toMatchObject({ state: { n: [1] } });
  });
});

/** JSON-like values with the corners a JSON copy rewrites: `undefined` members, `-0`, nested arrays. */
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.constant(-0),
    fc.array(fc.oneof(tie('value'), fc.constant(undefined)), { maxLength: 4 }),
    fc.dictionary(fc.string(), fc.oneof(tie('value'), fc.constant(undefined)), { maxKeys: 4 }),
  ),
})).value;

describe('trusted and validating paths store the same data for valid input', () => {
  it('a checkpoint read back after either path is identical', async () => {
    await fc.assert(
      fc.asyncProperty(
        // valid state: `__proto__` is no state key (the validating path refuses it, tested below)
        fc.dictionary(
          fc.string().filter((key) => key !== '__proto__'),
          jsonish,
          { maxKeys: 5 },
        ),
        fc.array(fc.string(), { maxLength: 3 }),
        fc.option(fc.string(), { nil: undefined }),
        async (state, texts, response) => {
          const results = [];
          for (const trusted of [false, true]) {
            const store = await storeWithRun();
            const checkpoint = checkpointOf(state, texts.map(said));
            const run = { ...checkpoint.run, response };
            const target = trusted ? trustedViewOf(store) : store;
            const returned = await target.commitCheckpoint({ ...checkpoint, run });
            results.push({
              returned,
              run: await store.getRun('r'),
              messages: await store.readMessages('t'),
              thread: await store.getThread('t'),
            });
          }
          expect(results[1]).toStrictEqual(results[0]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('events read back after either append path are identical', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(jsonish, { minLength: 1, maxLength: 4 }), async (values) => {
        const events = values.map((value, index) => ({
          type: 'state_snapshot' as const,
          runId: 'r',
          state: { value, gone: undefined },
          seq: index + 1,
          at: 1,
        }));
        const reads = [];
        for (const trusted of [false, true]) {
          const log = createMemoryRunEventLog();
          const target = trusted ? trustedViewOf(log) : log;
          await target.append('r', events as never, { fence: 0 });
          reads.push(await log.read('r'));
        }
        expect(reads[1]).toStrictEqual(reads[0]);
      }),
      { numRuns: 60 },
    );
  });
});
