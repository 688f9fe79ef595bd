import { randomUUID } from 'node:crypto';
import {
  type AgentEvent,
  EMPTY_USAGE,
  type RunControl,
  type RunControlInbox,
  type RunEventLog,
  type RunRecord,
  type ThreadRunStore,
} from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { type RedisStores, createRedisStores } from '@awaken/store-redis';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';

/**
 * Adversarial parity: the same ownership operations, with hostile ids and bad input, give the same
 * answers on the memory and the Redis stores (a backend difference must be a declared capability).
 */
interface Backend {
  store: ThreadRunStore;
  log: RunEventLog;
  inbox: RunControlInbox;
}

const opened: RedisStores[] = [];
afterAll(async () => {
  await Promise.all(opened.map((stores) => stores.close()));
});

function backend(name: 'memory' | 'redis'): Backend {
  if (name === 'memory') {
    const stores = createMemoryStores();
    return { store: stores.threadRuns, log: stores.eventLog, inbox: stores.inbox };
  }
  const stores = createRedisStores({ redis: inject('redisUrl'), prefix: `parity:${randomUUID()}:` });
  opened.push(stores);
  return { store: stores.threadRuns, log: stores.eventLog, inbox: stores.inbox };
}

const record = (runId: string, threadId: string): RunRecord => ({
  runId,
  threadId,
  agentId: 'agent',
  origin: 'user',
  status: 'created',
  steps: 0,
  usage: { ...EMPTY_USAGE },
  state: {},
  version: 0,
  createdAt: 1,
  updatedAt: 1,
});

const delta = (runId: string, seq: number): AgentEvent =>
  ({ type: 'text_delta', messageId: 'm', delta: 'x', seq, runId, at: 1 }) as AgentEvent;

/** The code of the AwakenError an operation fails with, or 'ok'. */
async function outcome(operation: () => Promise<unknown>): Promise<string> {
  try {
    await operation();
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? `raw ${String(error)}`;
  }
}

describe.each(['memory', 'redis'] as const)('run ownership on the %s stores', (name) => {
  it('treats ids named like Object.prototype members as ordinary ids', async () => {
    const { store, log, inbox } = backend(name);
    await store.createThread({ id: '__proto__' });
    for (const runId of ['__proto__', 'constructor', 'toString']) {
      await store.createRun(record(runId, '__proto__'));
      expect((await store.getRun(runId))?.runId).toBe(runId);
      expect((await store.acquireRun(runId, { owner: 'o', leaseMs: 60_000 })).fence).toBe(1);
      expect(await log.raiseFence(runId, 1)).toBe(0);
      expect(await inbox.put(runId, { kind: 'cancel', id: '__proto__', at: 1 })).toBe('stored');
    }
    expect(await store.getRun('hasOwnProperty')).toBeNull();
    expect(await outcome(() => store.acquireRun('valueOf', { owner: 'o', leaseMs: 10 }))).toBe('not_found');
    expect((await inbox.peek('constructor')).map((control) => control.id)).toEqual(['__proto__']);
    await inbox.remove('constructor', ['__proto__']);
    expect(await inbox.peek('constructor')).toEqual([]);
    expect(await inbox.peek('toString')).toHaveLength(1);
  });

  it('refuses bad lease input as validation_failed and writes nothing', async () => {
    const { store } = backend(name);
    await store.createThread({ id: 't' });
    await store.createRun(record('r', 't'));
    const bad: unknown[] = [
      { owner: 'o', leaseMs: Number.NaN },
      { owner: 'o', leaseMs: 0 },
      { owner: 'o', leaseMs: 1.5 },
      { owner: 'o', leaseMs: '10' },
      { owner: '', leaseMs: 10 },
      { owner: 'o', leaseMs: 86_400_001 },
      null,
    ];
    for (const input of bad) {
      expect(await outcome(() => store.acquireRun('r', input as never)), JSON.stringify(input)).toBe(
        'validation_failed',
      );
    }
    // nothing was taken: the first real acquisition gets fence 1
    const lease = await store.acquireRun('r', { owner: 'o', leaseMs: 60_000 });
    expect(lease.fence).toBe(1);
    const proof = { runId: 'r', owner: 'o', fence: 1 };
    expect(await outcome(() => store.renewRun({ ...proof, fence: Number.NaN, leaseMs: 10 }))).toBe(
      'validation_failed',
    );
    expect(await outcome(() => store.renewRun({ ...proof, leaseMs: -1 }))).toBe('validation_failed');
    expect(await outcome(() => store.acquireRun('r', { owner: 'o', leaseMs: 60_000 }))).toBe('run_busy');
    expect(await outcome(() => store.renewRun({ ...proof, owner: 'someone-else', leaseMs: 10 }))).toBe(
      'stale_claim',
    );
    expect(await outcome(() => store.renewRun({ ...proof, fence: 2, leaseMs: 10 }))).toBe('stale_claim');
    expect(await store.releaseRun({ ...proof, owner: 'someone-else' })).toBe(false);
    expect(await store.releaseRun({ ...proof, runId: 'unknown-run' })).toBe(false);
    expect(await store.releaseRun(proof)).toBe(true);
    expect(await store.releaseRun(proof)).toBe(false);
    expect(await outcome(() => store.renewRun({ ...proof, leaseMs: 10 }))).toBe('stale_claim');
    expect((await store.acquireRun('r', { owner: 'p', leaseMs: 60_000 })).fence).toBe(2);
  });

  it('lets a lapsed lease be renewed until someone takes the run, then fences its holder out', async () => {
    const { store } = backend(name);
    await store.createThread({ id: 't' });
    await store.createRun(record('r', 't'));
    const first = await store.acquireRun('r', { owner: 'first', leaseMs: 30 });
    const proof = { runId: 'r', owner: 'first', fence: first.fence };
    // lapsed, nobody took it: the holder may still renew
    await vi.waitFor(
      async () => {
        const renewed = await store.renewRun({ ...proof, leaseMs: 30 });
        expect(renewed.leaseUntil).toBeGreaterThan(first.leaseUntil);
      },
      { timeout: 5_000, interval: 40 },
    );
    const second = await vi.waitFor(() => store.acquireRun('r', { owner: 'second', leaseMs: 60_000 }), {
      timeout: 5_000,
      interval: 10,
    });
    expect(second.fence).toBe(first.fence + 1);
    expect(await outcome(() => store.renewRun({ ...proof, leaseMs: 30 }))).toBe('stale_claim');
    expect(await store.releaseRun(proof)).toBe(false);
    expect(
      await outcome(() => store.renewRun({ runId: 'r', owner: 'second', fence: 2, leaseMs: 60_000 })),
    ).toBe('ok');
  });

  it('fences the event log: stale and unfenced writers write nothing, bad fences are validation_failed', async () => {
    const { log } = backend(name);
    for (const fence of [0, 1.5, Number.NaN, -1]) {
      expect(await outcome(() => log.raiseFence('e', fence)), String(fence)).toBe('validation_failed');
    }
    expect(await log.raiseFence('e', 3)).toBe(0);
    expect(await outcome(() => log.append('e', [delta('e', 1)]))).toBe('stale_claim');
    expect(await outcome(() => log.append('e', [delta('e', 1)], { fence: 2 }))).toBe('stale_claim');
    expect(await outcome(() => log.append('e', [delta('e', 1)], { fence: Number.NaN }))).toBe(
      'validation_failed',
    );
    expect(await outcome(() => log.append('e', [delta('e', 1), delta('e', 2)], { fence: 3 }))).toBe('ok');
    expect(await outcome(() => log.append('e', [delta('e', 3)], { fence: 5 }))).toBe('ok');
    expect(await outcome(() => log.append('e', [delta('e', 4)], { fence: 3 }))).toBe('stale_claim');
    expect(await outcome(() => log.raiseFence('e', 4))).toBe('stale_claim');
    expect(await outcome(() => log.append('e', [], { fence: 1 }))).toBe('stale_claim');
    expect(await outcome(() => log.finish('e', { fence: 4 }))).toBe('stale_claim');
    expect(await log.isFinished('e')).toBe(false);
    expect(await outcome(() => log.finish('e', { fence: 5, ttlMs: Number.NaN }))).toBe('validation_failed');
    expect(await outcome(() => log.finish('e', { fence: 5 }))).toBe('ok');
    expect((await log.read('e')).map((event) => event.seq)).toEqual([1, 2, 3]);
    expect(await log.lastSeq('e')).toBe(3);
    expect(await log.raiseFence('e', 6)).toBe(3);
  });

  it('keeps the control inbox idempotent and refuses malformed commands', async () => {
    const { inbox } = backend(name);
    const input: RunControl = { kind: 'input', id: 'i', at: 1, messages: [{ role: 'user', content: 'x' }] };
    expect(await inbox.put('r', input)).toBe('stored');
    expect(await inbox.put('r', input)).toBe('duplicate');
    expect(await outcome(() => inbox.put('r', { kind: 'cancel', id: 'i', at: 1 }))).toBe('conflict');
    for (const bad of [
      { kind: 'cancel', id: '', at: 1 },
      { kind: 'cancel', id: 'c', at: Number.NaN },
      { kind: 'cancel', id: 'c', at: -1 },
      { kind: 'input', id: 'j', at: 1, messages: [] },
      { kind: 'bogus', id: 'k', at: 1 },
      null,
    ]) {
      expect(await outcome(() => inbox.put('r', bad as never)), JSON.stringify(bad)).toBe(
        'validation_failed',
      );
    }
    expect(await outcome(() => inbox.remove('r', 'i' as never))).toBe('validation_failed');
    expect((await inbox.peek('r')).map((control) => control.id)).toEqual(['i']);
  });
});
