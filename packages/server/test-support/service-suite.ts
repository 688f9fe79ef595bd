import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServiceCluster } from './cluster';
import { commandCases } from './command-cases';
import { checkManyRuns, playManyRuns } from './many-runs';
import { AGENT_ID } from './scenario-agent';
import {
  WAIT,
  decisionFor,
  dispatchesOf,
  events,
  ids,
  record,
  toolCounts,
  unexpectedErrors,
  untilStatus,
} from './suite-helpers';

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
    }, 240_000);

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
      const decided = await cluster.api.commands.decide({ threadId }, decisionFor(runId, ticket, true));
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
        Array.from({ length: 100 }, () => cluster.api.commands.decide({ runId }, decision)),
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
      const decided = await cluster.api.commands.decide(
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

    commandCases(() => cluster);
  });
}
