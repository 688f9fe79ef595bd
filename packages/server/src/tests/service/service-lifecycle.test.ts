import { randomUUID } from 'node:crypto';
import { AwakenError } from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Counters, memoryCounters } from '../../../test-support/counters';
import { AGENT_ID, scenarioAgent } from '../../../test-support/scenario-agent';
import { WAIT, dispatchesOf, record, untilStatus } from '../../../test-support/suite-helpers';
import { FAST } from '../../../test-support/worker-config';
import { createMailboxService } from '../../create-mailbox-service';
import type { MailboxService, MailboxServiceOptions, ServiceStores } from '../../types';

function sharedStores(): ServiceStores {
  return createMemoryStores();
}

describe('mailbox service lifecycle (memory)', () => {
  const services: MailboxService[] = [];
  let counters: Counters;
  let stores: ServiceStores;
  const service = (options: Partial<MailboxServiceOptions> = {}) => {
    const created = createMailboxService({ agents: [scenarioAgent(counters)], stores, ...FAST, ...options });
    services.push(created);
    return created;
  };
  const fresh = () => {
    counters = memoryCounters();
    stores = sharedStores();
  };
  afterEach(async () => {
    await Promise.all(services.splice(0).map((each) => each.stop({ graceMs: 2_000 })));
  });

  it('stops gracefully: running activations finish, nothing new is claimed, new submits are refused', async () => {
    fresh();
    const worker = service({ workerId: 'leaving' });
    const api = service({ workerId: 'api', concurrency: 0 });
    await Promise.all([worker.start(), api.start()]);
    const slow = await api.submit({ agentId: AGENT_ID, input: 'slow:300 #stop', mode: 'background' });
    await vi.waitFor(async () => expect(await counters.get(`slow-started:${slow.runId}`)).toBe(1), WAIT);
    const stopping = worker.stop({ graceMs: 5_000 });
    await expect(worker.submit({ agentId: AGENT_ID, input: 'plain' })).rejects.toMatchObject({
      code: 'conflict',
    });
    const later = await api.submit({ agentId: AGENT_ID, input: 'plain #later', mode: 'background' });
    await stopping;
    expect(await record(stores, slow.runId)).toMatchObject({
      status: 'done',
      response: 'done after 1 results',
    });
    expect((await api.dispatch(later.dispatchId))?.status).toBe('queued');
    const next = service({ workerId: 'next' });
    await next.start();
    expect((await later.settled()).status).toBe('done');
    expect((await api.dispatch(later.dispatchId))?.claimedBy).toBe('next');
  });

  it('detaches what still runs after the grace period; another process continues it without repeating finished work', async () => {
    fresh();
    const leaving = service({ workerId: 'leaving' });
    await leaving.start();
    const submitted = await leaving.submit({
      agentId: AGENT_ID,
      input: 'slow:400 #detach',
      mode: 'background',
    });
    await vi.waitFor(async () => expect(await counters.get(`slow-started:${submitted.runId}`)).toBe(1), WAIT);
    await leaving.stop({ graceMs: 20 });
    const stopped = await record(stores, submitted.runId);
    expect(stopped.status).toBe('running');
    expect(await leaving.dispatch(submitted.dispatchId)).toMatchObject({ status: 'queued', attemptCount: 1 });
    const next = service({ workerId: 'next' });
    await next.start();
    expect(await submitted.done()).toMatchObject({ status: 'done', response: 'done after 1 results' });
    expect(await counters.get(`exec:${submitted.runId}:slow_0_0`)).toBe(1);
    expect(await counters.get(`model:slow:400 #detach`)).toBe(2);
  });

  it('recovers at start a dispatch whose worker vanished, without waiting for the periodic sweep', async () => {
    fresh();
    const api = service({ workerId: 'api', concurrency: 0 });
    const submitted = await api.submit({ agentId: AGENT_ID, input: 'plain #ghost', mode: 'background' });
    const [ghost] = await stores.mailbox.claim({ workerId: 'ghost', limit: 1, leaseMs: 30 });
    expect(ghost?.dispatchId).toBe(submitted.dispatchId);
    await vi.waitFor(
      async () => expect(await stores.mailbox.now()).toBeGreaterThan(ghost?.leaseUntil ?? 0),
      WAIT,
    );
    const recovering = service({ workerId: 'recovering', sweepIntervalMs: 600_000 });
    await recovering.start();
    expect((await submitted.settled()).status).toBe('done');
    await vi.waitFor(
      async () =>
        expect(await api.dispatch(submitted.dispatchId)).toMatchObject({
          status: 'acked',
          attemptCount: 1,
          claimedBy: 'recovering',
        }),
      WAIT,
    );
  });

  it('dead-letters a run whose transient failures outlast maxAttempts, and ends it with the reason', async () => {
    fresh();
    const worker = service({ maxAttempts: 2 });
    await worker.start();
    const submitted = await worker.submit({
      agentId: AGENT_ID,
      input: 'transient:5 #tired',
      mode: 'background',
    });
    const done = await untilStatus(stores, submitted.runId, ['done']);
    // the service gave up on it: an error, not a cancel a person asked for
    expect(done.termination).toMatchObject({ type: 'error', code: 'dead_lettered' });
    expect(done.termination?.type === 'error' && done.termination.message).toMatch(
      /^dead-lettered after 2 attempts; last error: the model provider was unavailable$/,
    );
    const log = await stores.eventLog.read(submitted.runId);
    expect(log.at(-1)).toMatchObject({ type: 'run_finish', termination: { type: 'error' } });
    expect(await stores.eventLog.isFinished(submitted.runId)).toBe(true);
    expect(await worker.dispatch(submitted.dispatchId)).toMatchObject({
      status: 'dead_letter',
      attemptCount: 2,
    });
    expect(await counters.get('model:transient:5 #tired')).toBe(2);
  });

  it('keeps trying to end a dead-lettered run while the store fails that write, until it succeeds', async () => {
    fresh();
    // the store refuses the checkpoint that would record the dead letter as the run's end K times:
    // more than the runtime's own tries of a terminal checkpoint, so the service must try again
    const K = 8;
    let refused = 0;
    const healthy = stores.threadRuns;
    stores = {
      ...stores,
      threadRuns: new Proxy(healthy, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver);
          if (key !== 'commitCheckpoint' || typeof value !== 'function') return value;
          return (input: Parameters<typeof healthy.commitCheckpoint>[0]) => {
            const ending =
              input.run.termination?.type === 'error' && input.run.termination.code === 'dead_lettered';
            if (ending && refused < K) {
              refused += 1;
              return Promise.reject(new AwakenError('store_failure', 'injected outage', { retryable: true }));
            }
            return value.call(target, input);
          };
        },
      }),
    };
    const reported: string[] = [];
    const worker = service({ maxAttempts: 2, onError: (_error, where) => reported.push(where) });
    await worker.start();
    const submitted = await worker.submit({
      agentId: AGENT_ID,
      input: 'transient:5 #outage',
      mode: 'background',
    });
    const done = await untilStatus(stores, submitted.runId, ['done']);
    expect(done.termination).toMatchObject({ type: 'error', code: 'dead_lettered' });
    expect(refused).toBe(K);
    expect(await stores.eventLog.isFinished(submitted.runId)).toBe(true);
    // reported once for the series, not once per try
    expect(reported.filter((where) => where.startsWith(`finalizing run ${submitted.runId}`))).toHaveLength(1);
  });

  it('ends a dead-lettered run with an error when the next run of its thread starts', async () => {
    fresh();
    const api = service({ workerId: 'api', concurrency: 0, maxAttempts: 1 });
    const threadId = `thread-${randomUUID()}`;
    const first = await api.submit({ agentId: AGENT_ID, threadId, input: 'plain #lost', mode: 'background' });
    const [ghost] = await stores.mailbox.claim({ workerId: 'ghost', limit: 1, leaseMs: 30 });
    expect(ghost?.dispatchId).toBe(first.dispatchId);
    const second = await api.submit({
      agentId: AGENT_ID,
      threadId,
      input: 'plain #next',
      mode: 'background',
    });
    await vi.waitFor(
      async () => expect(await stores.mailbox.now()).toBeGreaterThan(ghost?.leaseUntil ?? 0),
      WAIT,
    );
    // the sweep dead-letters the ghost's dispatch; with more work queued it leaves the run to that work
    const worker = service({ workerId: 'worker', maxAttempts: 1 });
    await worker.start();
    expect(await untilStatus(stores, second.runId, ['done'])).toMatchObject({
      termination: { type: 'natural_end' },
    });
    const lost = await record(stores, first.runId);
    expect(lost).toMatchObject({ status: 'done', termination: { type: 'error', code: 'dead_lettered' } });
    expect(lost.termination?.type === 'error' && lost.termination.message).toMatch(
      /^dead-lettered after 1 attempts/,
    );
    expect(await api.dispatch(first.dispatchId)).toMatchObject({ status: 'dead_letter' });
  });

  it('keeps a run queued behind an earlier run of its thread that waits for a retry', async () => {
    fresh();
    // the retry waits long enough for the second run to be claimed (and deferred) in that window, on a
    // loaded machine too
    const worker = service({ retry: { baseDelayMs: 2_000, maxDelayMs: 2_000, jitter: 0 } });
    await worker.start();
    const threadId = `t-${randomUUID()}`;
    const first = await worker.submit({
      agentId: AGENT_ID,
      threadId,
      input: 'plain then transient:1 #first',
      mode: 'background',
    });
    await vi.waitFor(
      async () => expect(await counters.get('transient:plain then transient:1 #first:1')).toBe(1),
      WAIT,
    );
    const second = await worker.submit({
      agentId: AGENT_ID,
      threadId,
      input: 'plain #second',
      mode: 'background',
    });
    const done = await second.settled();
    const before = await record(stores, first.runId);
    expect(before).toMatchObject({ status: 'done', response: 'done after 1 results' });
    expect(done.startedAt).toBeGreaterThanOrEqual(before.finishedAt ?? Number.POSITIVE_INFINITY);
    const messages = await stores.threadRuns.readMessages(threadId);
    const firstOfSecond = messages.findIndex((entry) => entry.runId === second.runId);
    expect(messages.slice(firstOfSecond).every((entry) => entry.runId === second.runId)).toBe(true);
    const deferred = await dispatchesOf(stores, threadId, second.runId);
    expect(deferred[0]?.lastError).toMatch(/^deferred behind run /);
  });

  it('turns input injected into a run that already ended into the thread’s next run', async () => {
    fresh();
    const worker = service();
    await worker.start();
    const first = await worker.submit({ agentId: AGENT_ID, input: 'plain #first', mode: 'background' });
    await first.done();
    // what a steer that raced the run's end leaves behind: the input in the ended run's inbox, and
    // a dispatch for that run
    const late = {
      kind: 'input' as const,
      id: 'late-1',
      messages: [{ role: 'user' as const, content: 'plain #late' }],
      at: 1,
    };
    await stores.inbox.put(first.runId, late);
    await stores.mailbox.enqueue({
      threadId: first.threadId,
      runId: first.runId,
      dedupeKey: `resume:${first.runId}`,
    });
    const followUp = `${first.runId}:after:late-1`;
    const done = await untilStatus(stores, followUp, ['done']);
    expect(done).toMatchObject({ threadId: first.threadId, response: 'done after 1 results' });
    expect(await stores.inbox.peek(first.runId)).toEqual([]);
    const users = (await stores.threadRuns.readMessages(first.threadId)).filter(
      (entry) => entry.message.role === 'user',
    );
    expect(users.map((entry) => entry.runId)).toEqual([first.runId, followUp]);
  });

  it('waits under its claim for a run lease left by a stopped activation, without spending an attempt', async () => {
    fresh();
    const api = service({ workerId: 'api', concurrency: 0 });
    const submitted = await api.submit({ agentId: AGENT_ID, input: 'plain #held', mode: 'background' });
    // an activation elsewhere that stopped without releasing the run: its lease lapses by itself
    await stores.threadRuns.acquireRun(submitted.runId, { owner: 'gone', leaseMs: 300 });
    const worker = service({ workerId: 'worker' });
    await worker.start();
    expect((await submitted.settled()).status).toBe('done');
    await vi.waitFor(
      async () =>
        expect(await api.dispatch(submitted.dispatchId)).toMatchObject({ status: 'acked', attemptCount: 0 }),
      WAIT,
    );
  });

  it('follows a foreground run’s events to its run_finish', async () => {
    fresh();
    const api = service({ concurrency: 0 });
    await api.start();
    const submitted = await api.submit({ agentId: AGENT_ID, input: 'plain #events' });
    const types: string[] = [];
    for await (const event of submitted.events()) types.push(event.type);
    expect(types[0]).toBe('run_start');
    expect(types.at(-1)).toBe('run_finish');
    expect(types).toContain('tool_call_done');
    expect((await api.dispatch(submitted.dispatchId))?.claimedBy).toBe(api.workerId);
  });

  it('holds at most hotCacheSize waiting runs in memory', async () => {
    fresh();
    const worker = service({ hotCacheSize: 2 });
    await worker.start();
    const submitted = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        worker.submit({ agentId: AGENT_ID, input: `approve:1 #hot${index}`, mode: 'background' }),
      ),
    );
    for (const run of submitted) await untilStatus(stores, run.runId, ['waiting']);
    expect(worker.stats().hotRuns).toBe(2);
  });
});

describe('the thread gate (memory)', () => {
  it('leaves alone a run that is being submitted (stored, not yet enqueued) on the same thread', async () => {
    const counters = memoryCounters();
    const service = createMailboxService({ agents: [scenarioAgent(counters)], ...FAST });
    await service.start();
    try {
      const threadId = `t-${randomUUID()}`;
      // the write-ahead window of another submit: its run is stored, its dispatch not yet enqueued
      const pending = await service.runtime.createRun({
        agentId: AGENT_ID,
        threadId,
        input: 'plain #pending',
      });
      const other = await service.submit({
        agentId: AGENT_ID,
        threadId,
        input: 'plain #other',
        mode: 'background',
      });
      expect((await other.settled()).status).toBe('done');
      expect((await service.stores.threadRuns.getRun(pending.runId))?.status).toBe('created');
    } finally {
      await service.stop();
    }
  });
});
