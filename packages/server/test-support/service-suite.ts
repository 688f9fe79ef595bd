import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServiceCluster } from './cluster';
import { checkManyRuns, playManyRuns } from './many-runs';
import { AGENT_ID } from './scenario-agent';
import {
  WAIT,
  decisionFor,
  dispatchesOf,
  events,
  finishes,
  record,
  toolCounts,
  unexpectedErrors,
  untilStatus,
} from './suite-helpers';

const ids = () => {
  const runId = `run-${randomUUID()}`;
  return { runId, threadId: `thread-${runId}` };
};

/**
 * The service suite every backend runs: `open` builds a cluster of worker "processes" (real
 * processes on Redis, services in this process on memory) and an api service in the test process.
 */
export function describeServiceSuite(
  label: string,
  open: () => Promise<ServiceCluster>,
  manyRuns: number,
): void {
  describe(`mailbox service on ${label}`, () => {
    let cluster: ServiceCluster;
    beforeAll(async () => {
      cluster = await open();
    });
    afterAll(async () => {
      await cluster?.close();
    });

    it(`runs ${manyRuns} runs with random approvals and cancels: each ends once, each approved tool runs once, no ack twice`, async () => {
      const runs = await playManyRuns(cluster, manyRuns, 13);
      await checkManyRuns(cluster, runs);
      expect(unexpectedErrors(cluster)).toEqual([]);
    }, 120_000);

    it('resumes a waiting run with a decision received by a process that did not execute it', async () => {
      const { runId, threadId } = ids();
      await cluster.api.submit({
        agentId: AGENT_ID,
        runId,
        threadId,
        input: 'approve:1',
        mode: 'background',
      });
      const waiting = await untilStatus(cluster.stores, runId, ['waiting']);
      const [ticket] = waiting.waiting?.tickets ?? [];
      if (!ticket) throw new Error('no ticket');
      const [first] = await dispatchesOf(cluster.stores, threadId, runId);
      expect(first?.claimedBy).not.toBe('api');
      const decided = await cluster.api.control.decide({ threadId }, decisionFor(runId, ticket, true));
      expect(decided.receipts).toMatchObject([{ status: 'accepted', toolCallId: ticket.toolCallId }]);
      expect(decided.resumeDispatchId).toBeDefined();
      const done = await untilStatus(cluster.stores, runId, ['done']);
      expect(done.response).toBe('done after 1 results');
      expect(await toolCounts(cluster, runId, ticket.toolCallId)).toEqual({ executions: 1, completions: 1 });
      await vi.waitFor(async () => {
        const resume = await cluster.api.dispatch(decided.resumeDispatchId as string);
        expect(resume).toMatchObject({ runId, status: 'acked', runStatus: 'done' });
        expect(resume?.claimedBy).not.toBe('api');
      }, WAIT);
    });

    it('applies 100 identical concurrent decisions once, with one resume', async () => {
      const { runId, threadId } = ids();
      await cluster.api.submit({
        agentId: AGENT_ID,
        runId,
        threadId,
        input: 'approve:1',
        mode: 'background',
      });
      const waiting = await untilStatus(cluster.stores, runId, ['waiting']);
      const ticket = waiting.waiting?.tickets[0];
      if (!ticket) throw new Error('no ticket');
      const decision = decisionFor(runId, ticket, true);
      const results = await Promise.all(
        Array.from({ length: 100 }, () => cluster.api.control.decide({ runId }, decision)),
      );
      const statuses = results.map((result) => result.receipts[0]?.status);
      expect(statuses.filter((status) => status === 'accepted')).toHaveLength(1);
      expect(statuses.filter((status) => status === 'duplicate')).toHaveLength(99);
      await untilStatus(cluster.stores, runId, ['done']);
      expect(await toolCounts(cluster, runId, ticket.toolCallId)).toEqual({ executions: 1, completions: 1 });
      expect(await dispatchesOf(cluster.stores, threadId, runId)).toHaveLength(2);
      const starts = (await events(cluster.stores, runId)).filter((event) => event.type === 'run_start');
      expect(starts).toHaveLength(2);
    });

    it('applies a decision in the live activation of another process while its other tools still run', async () => {
      const { runId, threadId } = ids();
      await cluster.api.submit({
        agentId: AGENT_ID,
        runId,
        threadId,
        input: 'approve:1 slow:1500',
        mode: 'background',
      });
      const suspended = await vi.waitFor(async () => {
        const found = (await events(cluster.stores, runId)).find(
          (event) => event.type === 'tool_call_suspended',
        );
        expect(found).toBeDefined();
        return found;
      }, WAIT);
      expect((await record(cluster.stores, runId)).status).toBe('running');
      const callId = suspended?.type === 'tool_call_suspended' ? suspended.toolCallId : '';
      const decided = await cluster.api.control.decide(
        { runId },
        {
          toolCallId: callId,
          decisionId: `live-${runId}`,
          action: 'resume',
          result: { approved: true },
          updatedAt: Date.now(),
        },
      );
      expect(decided.receipts[0]?.status).toBe('accepted');
      expect(decided.resumeDispatchId).toBeUndefined();
      // applied while `slow` still sleeps: the approved call finishes first
      await vi.waitFor(
        async () => expect((await toolCounts(cluster, runId, callId)).completions).toBe(1),
        WAIT,
      );
      expect((await toolCounts(cluster, runId, 'slow_0_1')).completions).toBe(0);
      const done = await untilStatus(cluster.stores, runId, ['done']);
      expect(done.response).toBe('done after 2 results');
      expect(
        (await events(cluster.stores, runId)).filter((event) => event.type === 'run_start'),
      ).toHaveLength(1);
      expect(await dispatchesOf(cluster.stores, threadId, runId)).toHaveLength(1);
    });

    it('interrupts a run executing in another process', async () => {
      const { runId, threadId } = ids();
      await cluster.api.submit({
        agentId: AGENT_ID,
        runId,
        threadId,
        input: 'slow:30000',
        mode: 'background',
      });
      await vi.waitFor(async () => expect(await cluster.counters.get(`slow-started:${runId}`)).toBe(1), WAIT);
      const interrupted = await cluster.api.control.interruptThread(threadId, 'stop it');
      expect(interrupted).toMatchObject({ threadId, cancelledRunId: runId });
      const done = await untilStatus(cluster.stores, runId, ['done']);
      expect(done.termination?.type).toBe('cancelled');
      expect((await toolCounts(cluster, runId, 'slow_0_0')).completions).toBe(0);
      await vi.waitFor(async () => {
        const [dispatch] = await dispatchesOf(cluster.stores, threadId, runId);
        expect(dispatch?.status).toBe('superseded');
      }, WAIT);
    });

    it('cancels a run executing in another process through the run-control inbox', async () => {
      const { runId, threadId } = ids();
      await cluster.api.submit({
        agentId: AGENT_ID,
        runId,
        threadId,
        input: 'slow:30000',
        mode: 'background',
      });
      await vi.waitFor(async () => expect(await cluster.counters.get(`slow-started:${runId}`)).toBe(1), WAIT);
      const cancelled = await cluster.api.control.cancelRun(runId, 'stop now');
      expect(cancelled).toMatchObject({
        status: 'done',
        termination: { type: 'cancelled', reason: 'stop now' },
      });
      expect((await toolCounts(cluster, runId, 'slow_0_0')).completions).toBe(0);
      await vi.waitFor(async () => {
        const [dispatch] = await dispatchesOf(cluster.stores, threadId, runId);
        expect(dispatch).toMatchObject({ status: 'acked', runStatus: 'done' });
      }, WAIT);
    });

    it('latest wins: a foreground run on a busy thread supersedes queued work and cancels the active run', async () => {
      const first = ids();
      const { threadId } = first;
      await cluster.api.submit({ agentId: AGENT_ID, ...first, input: 'slow:30000', mode: 'background' });
      await vi.waitFor(
        async () => expect(await cluster.counters.get(`slow-started:${first.runId}`)).toBe(1),
        WAIT,
      );
      const queued = await cluster.api.submit({
        agentId: AGENT_ID,
        threadId,
        input: 'plain #queued',
        mode: 'background',
      });
      await expect(
        cluster.api.submit({ agentId: AGENT_ID, threadId, input: 'plain #refused', ifBusy: 'conflict' }),
      ).rejects.toMatchObject({ code: 'conflict' });
      const latest = await cluster.api.submit({ agentId: AGENT_ID, threadId, input: 'plain #latest' });
      expect((await latest.settled()).response).toBe('done after 1 results');
      expect((await record(cluster.stores, first.runId)).termination?.type).toBe('cancelled');
      expect(await cluster.api.dispatch(queued.dispatchId)).toMatchObject({ status: 'superseded' });
      expect((await record(cluster.stores, queued.runId)).status).toBe('done');
      expect(await cluster.counters.get('model:plain #queued')).toBe(0);
    });

    it('runs a background submit on a busy thread after the current run', async () => {
      const first = ids();
      await cluster.api.submit({ agentId: AGENT_ID, ...first, input: 'slow:400 #first', mode: 'background' });
      const second = await cluster.api.submit({
        agentId: AGENT_ID,
        threadId: first.threadId,
        input: 'plain #second',
        mode: 'background',
      });
      const done = await second.settled();
      const before = await record(cluster.stores, first.runId);
      expect(before.status).toBe('done');
      expect(done.startedAt).toBeGreaterThanOrEqual(before.finishedAt ?? Number.POSITIVE_INFINITY);
      const messages = await cluster.stores.threadRuns.readMessages(first.threadId);
      expect(messages.map((entry) => entry.runId)).toEqual([
        ...messages.filter((entry) => entry.runId === first.runId).map(() => first.runId),
        ...messages.filter((entry) => entry.runId === second.runId).map(() => second.runId),
      ]);
    });

    it('retries a transient model failure with backoff, honouring Retry-After, without repeating committed turns', async () => {
      const { runId, threadId } = ids();
      const input = `plain then transient:2:300 #${runId}`;
      const submitted = await cluster.api.submit({
        agentId: AGENT_ID,
        runId,
        threadId,
        input,
        mode: 'background',
      });
      const done = await submitted.settled();
      expect(done).toMatchObject({ status: 'done', response: 'done after 1 results' });
      expect(await toolCounts(cluster, runId, 'plain_0_0')).toEqual({ executions: 1, completions: 1 });
      // turn 0 once, turn 1 failed twice and then answered
      expect(await cluster.counters.get(`model:${input}`)).toBe(4);
      await vi.waitFor(async () => {
        const [dispatch] = await dispatchesOf(cluster.stores, threadId, runId);
        expect(dispatch).toMatchObject({ status: 'acked', attemptCount: 2 });
      }, WAIT);
      const log = await events(cluster.stores, runId);
      const failures = log.filter((event) => event.type === 'error');
      expect(failures).toHaveLength(2);
      for (const failure of failures) {
        const retried = log.find((event) => event.type === 'run_start' && event.seq > failure.seq);
        expect((retried?.at ?? 0) - failure.at).toBeGreaterThanOrEqual(295);
      }
    });

    it('dead-letters a permanent failure after exactly one execution', async () => {
      const { runId, threadId } = ids();
      const input = `permanent #${runId}`;
      await cluster.api.submit({ agentId: AGENT_ID, runId, threadId, input, mode: 'background' });
      const done = await untilStatus(cluster.stores, runId, ['done']);
      expect(done.termination).toMatchObject({ type: 'error' });
      await vi.waitFor(async () => {
        const [dispatch] = await dispatchesOf(cluster.stores, threadId, runId);
        expect(dispatch).toMatchObject({ status: 'dead_letter', runStatus: 'done' });
      }, WAIT);
      expect(await cluster.counters.get(`model:${input}`)).toBe(1);
      expect((await finishes(cluster.stores, runId)).done).toBe(1);
    });

    it('steers the executing run with injected input, read at its next step', async () => {
      const { runId, threadId } = ids();
      await cluster.api.submit({
        agentId: AGENT_ID,
        runId,
        threadId,
        input: 'slow:600 #steer',
        mode: 'background',
      });
      await vi.waitFor(async () => expect(await cluster.counters.get(`slow-started:${runId}`)).toBe(1), WAIT);
      const steered = await cluster.api.control.injectUserInput({
        threadId,
        input: 'plain #steered',
        mode: 'steer',
      });
      expect(steered).toEqual({ mode: 'steer', runId });
      const done = await untilStatus(cluster.stores, runId, ['done']);
      expect(done.response).toBe('done after 1 results');
      expect(await toolCounts(cluster, runId, 'slow_0_0')).toEqual({ executions: 1, completions: 1 });
      expect(await toolCounts(cluster, runId, 'plain_0_0')).toEqual({ executions: 1, completions: 1 });
      const users = (await cluster.stores.threadRuns.readMessages(threadId)).filter(
        (entry) => entry.message.role === 'user',
      );
      expect(
        users.map((entry) => [entry.runId, entry.message.role === 'user' && entry.message.content]),
      ).toEqual([
        [runId, 'slow:600 #steer'],
        [runId, 'plain #steered'],
      ]);
    });

    it('resumes the waiting run with injected input, its open calls cancelled as superseded', async () => {
      const { runId, threadId } = ids();
      await cluster.api.submit({
        agentId: AGENT_ID,
        runId,
        threadId,
        input: 'approve:1 #resume',
        mode: 'background',
      });
      await untilStatus(cluster.stores, runId, ['waiting']);
      const resumed = await cluster.api.control.injectUserInput({
        threadId,
        input: 'plain #instead',
        mode: 'resume',
      });
      expect(resumed).toMatchObject({ mode: 'resume', runId });
      const done = await untilStatus(cluster.stores, runId, ['done']);
      expect(done).toMatchObject({ termination: { type: 'natural_end' }, response: 'done after 1 results' });
      expect((await toolCounts(cluster, runId, 'approve_me_0_0')).executions).toBe(0);
      expect(await toolCounts(cluster, runId, 'plain_0_0')).toEqual({ executions: 1, completions: 1 });
      await expect(
        cluster.api.control.injectUserInput({ threadId, input: 'again', mode: 'resume' }),
      ).rejects.toMatchObject({ code: 'conflict' });
      await expect(
        cluster.api.control.injectUserInput({ threadId, input: 'again', mode: 'steer' }),
      ).rejects.toMatchObject({ code: 'conflict' });
    });

    it('injects user input as the next run (queue) or after interrupting the thread (interrupt)', async () => {
      const first = ids();
      await cluster.api.submit({
        agentId: AGENT_ID,
        ...first,
        input: 'slow:300 #inject',
        mode: 'background',
      });
      const queued = await cluster.api.control.injectUserInput({
        threadId: first.threadId,
        input: 'plain #queued-input',
        mode: 'queue',
      });
      expect((await untilStatus(cluster.stores, queued.runId, ['done'])).response).toBe(
        'done after 1 results',
      );
      expect((await record(cluster.stores, first.runId)).termination?.type).toBe('natural_end');

      await cluster.api.submit({
        agentId: AGENT_ID,
        threadId: first.threadId,
        input: 'slow:30000',
        mode: 'background',
      });
      const interrupting = await cluster.api.control.injectUserInput({
        threadId: first.threadId,
        input: 'plain #interrupting-input',
        mode: 'interrupt',
      });
      expect((await untilStatus(cluster.stores, interrupting.runId, ['done'])).response).toBe(
        'done after 1 results',
      );
      const runs = await cluster.stores.threadRuns.listRuns(first.threadId);
      expect(runs.items.map((run) => run.termination?.type)).toEqual([
        'natural_end',
        'cancelled',
        'natural_end',
        'natural_end',
      ]);
    });
  });
}
