import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { createMemoryStores } from '@awaken/store-memory';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryCounters } from '../../../test-support/counters';
import { AGENT_ID, scenarioAgent } from '../../../test-support/scenario-agent';
import { WAIT, untilStatus } from '../../../test-support/suite-helpers';
import { FAST } from '../../../test-support/worker-config';
import { createMailboxService } from '../../create-mailbox-service';
import { createHttpApp } from '../../http/create-http-app';
import type { MailboxService, ServiceStores } from '../../types';

/** A worker id as the service makes one: `<hostname>:<pid>:<random>`. */
const GHOST = `${hostname()}:${process.pid}:1a2b3c4d`;

const services: MailboxService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((each) => each.stop({ graceMs: 1_000 })));
});

function setUp() {
  const stores: ServiceStores = createMemoryStores();
  const make = (workerId: string, concurrency: number) => {
    const created = createMailboxService({
      agents: [scenarioAgent(memoryCounters())],
      stores,
      ...FAST,
      workerId,
      concurrency,
      maxAttempts: 1,
    });
    services.push(created);
    return created;
  };
  const api = make('api', 0);
  const http = createHttpApp({ tenants: { default: api }, logger: pino({ level: 'silent' }) });
  const get = async (path: string) => {
    const response = await http.app.request(path);
    return { status: response.status, text: await response.text() };
  };
  /** A background run whose dispatch a process named like a real one claimed, then died holding it. */
  const lostRun = async (threadId: string) => {
    const run = await api.submit({ agentId: AGENT_ID, threadId, input: 'plain #lost', mode: 'background' });
    const [ghost] = await stores.mailbox.claim({ workerId: GHOST, limit: 1, leaseMs: 30 });
    expect(ghost?.dispatchId).toBe(run.dispatchId);
    await vi.waitFor(
      async () => expect(await stores.mailbox.now()).toBeGreaterThan(ghost?.leaseUntil ?? 0),
      WAIT,
    );
    return run;
  };
  return { stores, api, make, get, lostRun };
}

function expectNoHost(text: string): void {
  expect(text).not.toContain(hostname());
  expect(text).not.toContain(`:${process.pid}:`);
  expect(text).not.toContain(GHOST);
}

describe("a lost lease is told to the tenant without the worker's host or pid", () => {
  it('the sweep dead-letters it: the run, its events, its dispatch and the dead letters say "the worker\'s lease expired"', async () => {
    const { stores, make, get, lostRun } = setUp();
    const run = await lostRun(`thread-${randomUUID()}`);
    // the store keeps the worker for operators
    expect((await stores.mailbox.loadDispatch(run.dispatchId))?.claimedBy).toBe(GHOST);
    await make('sweeper', 1).start();
    const done = await untilStatus(stores, run.runId, ['done']);
    expect(done.termination).toEqual({
      type: 'error',
      code: 'dead_lettered',
      message:
        "dead-lettered after 1 attempts (the process executing it stopped each time); last error: the worker's lease expired",
    });
    const seen = {
      run: await get(`/v1/runs/${run.runId}`),
      events: await get(`/v1/runs/${run.runId}/events`),
      dispatch: await get(`/v1/mailbox/dispatches/${run.dispatchId}`),
      deadLetters: await get('/v1/mailbox/dead-letters'),
      dispatches: await get(`/v1/threads/${done.threadId}/dispatches`),
    };
    expect(JSON.parse(seen.dispatch.text)).toMatchObject({
      status: 'dead_letter',
      lastError: "the worker's lease expired",
    });
    for (const { status, text } of Object.values(seen)) {
      expect(status).toBe(200);
      expectNoHost(text);
    }
    expect(seen.events.text).toContain("the worker's lease expired");
    // the operator still has the detail in the store
    expect((await stores.mailbox.loadDispatch(run.dispatchId))?.lastError).toBe(`lease of ${GHOST} expired`);
  });

  it("the thread's next run ends it: the same words", async () => {
    const { stores, api, make, get, lostRun } = setUp();
    const threadId = `thread-${randomUUID()}`;
    const run = await lostRun(threadId);
    const next = await api.submit({ agentId: AGENT_ID, threadId, input: 'plain #next', mode: 'background' });
    await make('worker', 1).start();
    expect((await untilStatus(stores, next.runId, ['done'])).termination).toMatchObject({
      type: 'natural_end',
    });
    const lost = await untilStatus(stores, run.runId, ['done']);
    const message = lost.termination?.type === 'error' ? lost.termination.message : '';
    expect(message).toMatch(/^dead-lettered after 1 attempts.*the worker's lease expired$/);
    expectNoHost((await get(`/v1/runs/${run.runId}`)).text);
  });
});
