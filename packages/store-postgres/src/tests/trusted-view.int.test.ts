import {
  AwakenError,
  type NewMessage,
  type RunRecord,
  runEventLogInputs,
  threadRunStoreInputs,
  trustedViewOf,
} from '@awaken/contract';
import { afterAll, afterEach, describe, expect, inject, it, vi } from 'vitest';
import { adminPool, dropSchema, uniqueSchema } from '../../test-support/pg-harness';
import { type PostgresStores, createPostgresStores } from '../create-postgres-stores';

const url = inject('postgresUrl');
const admin = adminPool(url);
const opened: PostgresStores[] = [];

async function open() {
  const stores = createPostgresStores({ postgres: url, schema: uniqueSchema('trusted') });
  opened.push(stores);
  await stores.migrate();
  return { store: stores.threadRuns, log: stores.eventLog };
}

afterEach(async () => {
  vi.restoreAllMocks();
  for (const stores of opened.splice(0)) {
    await stores.close();
    await dropSchema(admin, stores.schema);
  }
});
afterAll(() => admin.end());

const newRun = (): RunRecord => ({
  runId: 'r',
  threadId: 't',
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

/** A checkpoint with the corners a JSON form rewrites: `undefined` members and array items, `-0`. */
const checkpoint = (state: Record<string, unknown>) => ({
  trigger: 'assistant_turn_committed' as const,
  threadId: 't',
  expectedMessageCount: 0,
  messages: [said('hi'), said('there')],
  run: { ...newRun(), status: 'running' as const, version: 1, response: undefined, state },
});

const STATES: Record<string, unknown>[] = [
  {},
  { a: -0, b: [1, undefined, { c: undefined, d: 'x' }], e: null },
  { nested: { deep: { list: [[], {}, 'ü', 1.5] } }, gone: undefined },
];

describe('the Postgres stores’ trusted view', () => {
  it('skips the input parse on the trusted path; the store itself still parses and rejects mistakes', async () => {
    const { store, log } = await open();
    await store.createThread({ id: 't' });
    await store.createRun(newRun());
    const commitParse = vi.spyOn(threadRunStoreInputs.commitCheckpoint, 'parse');
    const appendParse = vi.spyOn(runEventLogInputs.append, 'parse');

    await expect(store.commitCheckpoint(checkpoint({ big: 1n }))).rejects.toSatisfy(
      (error) => AwakenError.isInstance(error) && error.code === 'validation_failed',
    );
    await expect(log.append('r', [{ type: 'nonsense' } as never])).rejects.toSatisfy(
      (error) => AwakenError.isInstance(error) && error.code === 'validation_failed',
    );
    expect(commitParse).toHaveBeenCalledTimes(1);
    expect(appendParse).toHaveBeenCalledTimes(1);
    expect(await store.getRun('r')).toEqual(newRun());
    expect(await log.lastSeq('r')).toBe(0);

    await trustedViewOf(store).commitCheckpoint(checkpoint({ ok: true }));
    await trustedViewOf(log).append('r', [{ type: 'state_snapshot', runId: 'r', state: {}, seq: 1, at: 1 }]);
    expect(commitParse).toHaveBeenCalledTimes(1);
    expect(appendParse).toHaveBeenCalledTimes(1);
    expect((await store.getRun('r'))?.state).toEqual({ ok: true });
    expect(await log.lastSeq('r')).toBe(1);
  });

  it('keeps a caller-value operation validating on the trusted path too', async () => {
    const { store } = await open();
    await expect(trustedViewOf(store).createThread({ id: 't', metadata: { n: 1n } })).rejects.toSatisfy(
      (error) => AwakenError.isInstance(error) && error.code === 'validation_failed',
    );
    expect(await store.getThread('t')).toBeNull();
  });

  it('stores the same data through either path for valid input', async () => {
    for (const state of STATES) {
      const results = [];
      for (const trusted of [false, true]) {
        const { store, log } = await open();
        await store.createThread({ id: 't' });
        await store.createRun(newRun());
        const threads = trusted ? trustedViewOf(store) : store;
        const events = trusted ? trustedViewOf(log) : log;
        await threads.commitCheckpoint(checkpoint(state));
        await events.append('r', [{ type: 'state_snapshot', runId: 'r', state, seq: 1, at: 1 }], {
          fence: 0,
        });
        const thread = await store.getThread('t');
        results.push({
          run: await store.getRun('r'),
          messages: (await store.readMessages('t')).map(({ createdAt: _, ...record }) => record),
          pointers: thread && { ...thread, createdAt: 0, updatedAt: 0 },
          events: await log.read('r'),
        });
      }
      expect(results[1]).toStrictEqual(results[0]);
    }
  });
});
