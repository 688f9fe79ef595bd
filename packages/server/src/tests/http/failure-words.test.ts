import { hostname } from 'node:os';
import { Writable } from 'node:stream';
import { type AcquireWithFence, AwakenError, type RunEventLog, jointAcquirer } from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AGENT_ID, scenarioAgent } from '../../../test-support/scenario-agent';
import { memoryCounters } from '../../../test-support/counters';
import { createMailboxService } from '../../create-mailbox-service';
import { type HttpApp, createHttpApp } from '../../http/create-http-app';
import type { MailboxService } from '../../types';

/** What a Redis client and a lease holder put in their errors: client options, host name, pid. */
const INTERNALS = `Reached the max retries per request limit (which is 2). Refer to "maxRetriesPerRequest" option for details. held by ${hostname()}:${process.pid}:1a2b3c4d`;

/**
 * Memory stores whose lease acquisition (`acquireRun`, or the joint `acquireRunWithFence` the
 * service takes it with when offered) fails with the next queued error, if any.
 */
function failingStores() {
  const memory = createMemoryStores();
  const failures: Error[] = [];
  const threadRuns = new Proxy(memory.threadRuns, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      if (key === 'acquireWithFence')
        return (log: RunEventLog): AcquireWithFence | undefined => {
          const joint = jointAcquirer(target, log);
          if (!joint) return undefined;
          return {
            acquireRunWithFence(runId, input) {
              const failure = failures.shift();
              return failure ? Promise.reject(failure) : joint.acquireRunWithFence(runId, input);
            },
          };
        };
      return (...args: unknown[]) => {
        const failure = key === 'acquireRun' ? failures.shift() : undefined;
        return failure ? Promise.reject(failure) : value.apply(target, args);
      };
    },
  });
  return {
    stores: { threadRuns, mailbox: memory.mailbox, eventLog: memory.eventLog, inbox: memory.inbox },
    failures,
  };
}

const lines: string[] = [];
const broken = failingStores();
let service: MailboxService;
let http: HttpApp;
beforeAll(async () => {
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    }),
  );
  service = createMailboxService({
    agents: [scenarioAgent(memoryCounters())],
    stores: broken.stores,
    concurrency: 1,
    idleWaitMs: 50,
    maxAttempts: 2,
    retry: { baseDelayMs: 10, maxDelayMs: 20, jitter: 0 },
    onError: (error, where) => logger.warn({ err: error, where }, 'service error'),
  });
  await service.start();
  http = createHttpApp({ tenants: { default: service }, logger });
});
afterAll(() => service.stop({ graceMs: 1_000 }));

async function get(path: string): Promise<{ status: number; text: string }> {
  const response = await http.app.request(path);
  return { status: response.status, text: await response.text() };
}

/** Submits a run whose activations fail with `errors`, and waits until the service ended it. */
async function failedRun(errors: Error[]): Promise<{ run: any; events: string; dispatch: string }> {
  broken.failures.push(...errors);
  const submitted = await http.app.request('/v1/mailbox/submit', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agentId: AGENT_ID, input: 'plain' }),
  });
  expect(submitted.status).toBe(202);
  const { runId, dispatchId } = await submitted.json();
  const run = await vi.waitFor(
    async () => {
      const body = JSON.parse((await get(`/v1/runs/${runId}`)).text);
      expect(body.status).toBe('done');
      return body;
    },
    { timeout: 10_000, interval: 25 },
  );
  return {
    run,
    events: (await get(`/v1/runs/${runId}/events`)).text,
    dispatch: (await get(`/v1/mailbox/dispatches/${dispatchId}`)).text,
  };
}

function expectNoInternals(text: string): void {
  expect(text).not.toContain('max retries');
  expect(text).not.toContain('maxRetriesPerRequest');
  expect(text).not.toContain(hostname());
  expect(text).not.toContain(`:${process.pid}:`);
}

describe('a run the service ends says what happened in our words; the details go to the log', () => {
  it('a store failing every attempt: "the store was unavailable", no client text, host or pid', async () => {
    const failure = () => new AwakenError('store_failure', INTERNALS, { retryable: true });
    const { run, events, dispatch } = await failedRun([failure(), failure()]);
    expect(run.termination).toEqual({
      type: 'error',
      code: 'dead_lettered',
      message: 'dead-lettered after 2 attempts; last error: the store was unavailable',
    });
    for (const text of [JSON.stringify(run), events, dispatch]) expectNoInternals(text);
    expect(lines.some((line) => line.includes('max retries per request'))).toBe(true);
  });

  it('an unexpected error: "an internal error"', async () => {
    const { run, events, dispatch } = await failedRun([new Error(INTERNALS)]);
    expect(run.termination).toMatchObject({ message: 'permanent failure: an internal error' });
    for (const text of [JSON.stringify(run), events, dispatch]) expectNoInternals(text);
  });

  it('every log line is JSON (stacks inside it, never a line of their own)', () => {
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
  });
});
