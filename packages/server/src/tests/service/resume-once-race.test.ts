import type { MailboxStore } from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailboxService } from '../../create-mailbox-service';
import type { MailboxService, ServiceStores } from '../../types';
import { type Counters, memoryCounters } from '../../../test-support/counters';
import { AGENT_ID, scenarioAgent } from '../../../test-support/scenario-agent';
import { decisionFor, dispatchesOf, ids, untilStatus } from '../../../test-support/suite-helpers';

/**
 * Identical concurrent decisions make one resume, also when the process that takes them is slow:
 * the resume a first decision enqueued may run, apply the decision, finish and free its dedupe key
 * between another copy's reading of the run and its enqueue (the Redis service suite once saw three
 * dispatches). The api's mailbox writes here lag a random 0–25 ms, as under load, so in many trials
 * the worker finishes the resume inside that window.
 */
const TRIALS = 25;
const COPIES = 20;

let stores: ServiceStores;
let counters: Counters;
let api: MailboxService;
let worker: MailboxService;

/** The mailbox as a loaded process sees it: each enqueue reaches the store a little later. */
function lagging(mailbox: MailboxStore): MailboxStore {
  const lag = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 25));
  return new Proxy(mailbox, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (name !== 'enqueue' && name !== 'enqueueAndClaim') return value;
      return async (...args: unknown[]) => {
        await lag();
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

beforeAll(async () => {
  const memory = createMemoryStores();
  stores = {
    threadRuns: memory.threadRuns,
    mailbox: memory.mailbox,
    eventLog: memory.eventLog,
    inbox: memory.inbox,
  };
  counters = memoryCounters();
  const make = (workerId: string, mailbox: MailboxStore, concurrency: number) =>
    createMailboxService({
      agents: [scenarioAgent(counters)],
      stores: { ...stores, mailbox },
      workerId,
      concurrency,
      idleWaitMs: 20,
    });
  api = make('api', lagging(stores.mailbox), 0);
  worker = make('worker', stores.mailbox, 4);
  await Promise.all([api.start(), worker.start()]);
});
afterAll(async () => {
  await Promise.all([api?.stop({ graceMs: 2_000 }), worker?.stop({ graceMs: 2_000 })]);
});

describe('identical concurrent decisions', () => {
  it(`make one resume dispatch in each of ${TRIALS} trials of ${COPIES} copies, the tool run once`, async () => {
    const trials = Array.from({ length: TRIALS }, async () => {
      const { runId, threadId } = ids();
      await api.submit({ agentId: AGENT_ID, runId, threadId, input: 'approve:1', mode: 'background' });
      const waiting = await untilStatus(stores, runId, ['waiting']);
      const ticket = waiting.waiting?.tickets[0];
      if (!ticket) throw new Error('no ticket');
      const decision = decisionFor(runId, ticket, true);
      const results = await Promise.all(
        Array.from({ length: COPIES }, () => api.commands.decide({ runId }, decision)),
      );
      expect(results.filter((result) => result.receipts[0]?.status === 'accepted')).toHaveLength(1);
      await untilStatus(stores, runId, ['done']);
      // every decide has returned: any resume it enqueued is in the mailbox now
      const dispatches = await dispatchesOf(stores, threadId, runId);
      return {
        dispatches: dispatches.length,
        executions: await counters.get(`exec:${runId}:${ticket.toolCallId}`),
      };
    });
    const outcomes = await Promise.all(trials);
    expect(outcomes.map((outcome) => outcome.executions)).toEqual(Array(TRIALS).fill(1));
    // the start and one resume
    expect(outcomes.map((outcome) => outcome.dispatches)).toEqual(Array(TRIALS).fill(2));
  }, 120_000);
});
