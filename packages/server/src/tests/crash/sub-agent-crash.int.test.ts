import { randomUUID } from 'node:crypto';
import { type RunRecord, approve } from '@awaken/contract';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { type ServiceCluster, createRedisCluster } from '../../../test-support/cluster';
import { LEAD_ID } from '../../../test-support/sub-agent-scenario';
import { WAIT, dispatchesOf, record, untilStatus } from '../../../test-support/suite-helpers';
import { FAST } from '../../../test-support/worker-config';

/** A `lead` run delegating its whole input to the `helper` sub-agent, queued for the workers. */
async function submitLead(cluster: ServiceCluster, script: string) {
  const runId = `lead-${randomUUID()}`;
  const threadId = `thread-${runId}`;
  const input = `${script} #${runId}`;
  await cluster.api.submit({ agentId: LEAD_ID, runId, threadId, input, mode: 'background' });
  return { runId, threadId, input };
}

/** The child run the lead's open ticket (or, once it started, its first call) names. */
function childOf(lead: RunRecord): string {
  const runId = lead.waiting?.tickets[0]?.nested?.runId;
  if (!runId) throw new Error(`run ${lead.runId} waits on no nested ticket`);
  return runId;
}

async function claimerOf(cluster: ServiceCluster, threadId: string, runId: string) {
  const [claimed] = await dispatchesOf(cluster.stores, threadId, runId);
  const worker = cluster.workers.find((candidate) => candidate.workerId === claimed?.claimedBy);
  if (!worker) throw new Error(`no worker ${claimed?.claimedBy}`);
  return worker;
}

/** Sub-agents in worker processes on one real Redis: crashes, answers from elsewhere, cancels. */
describe('mailbox service: a run with a sub-agent', () => {
  const url = inject('redisUrl');
  let cluster: ServiceCluster | undefined;
  afterEach(async () => {
    await cluster?.close();
    cluster = undefined;
  });

  it('kill -9 between question and answer: the answer sent to another process resumes the child where it stopped', async () => {
    const current = await createRedisCluster(url, 2, FAST);
    cluster = current;
    const { runId, threadId, input } = await submitLead(current, 'approve:1');
    const waiting = await untilStatus(current.stores, runId, ['waiting']);
    const [ticket] = waiting.waiting!.tickets;
    expect(ticket).toMatchObject({
      toolName: 'helper',
      message: expect.stringMatching(/^helper › approve_me: run approve_me/),
      nested: { toolName: 'approve_me', agentPath: ['lead', 'helper'], toolCallId: 'approve_me_0_0' },
    });
    const childId = childOf(waiting);
    expect(await record(current.stores, childId)).toMatchObject({ status: 'waiting', parentRunId: runId });
    const victim = await claimerOf(current, threadId, runId);
    await victim.kill();

    const decided = await current.api.commands.decide({ runId }, approve(ticket!));
    expect(decided.receipts).toMatchObject([{ status: 'accepted' }]);
    const done = await untilStatus(current.stores, runId, ['done']);
    expect(done.response).toBe('lead heard: "done after 1 results"');
    const child = await record(current.stores, childId);
    expect(child).toMatchObject({ status: 'done', response: 'done after 1 results' });
    // the child's first turn was not asked again, its approved call ran once, the lead's model twice
    expect(await current.counters.get(`model:${input}`)).toBe(2);
    expect(await current.counters.get(`exec:${childId}:approve_me_0_0`)).toBe(1);
    expect(await current.counters.get(`lead-model:${input}`)).toBe(2);
    const resumedBy = (await dispatchesOf(current.stores, threadId, runId)).map((d) => d.claimedBy);
    expect(resumedBy).toContain(current.workers.find((worker) => worker !== victim)?.workerId);
  }, 60_000);

  it('kill -9 while the child works: another process re-executes the call, which continues the same child', async () => {
    const current = await createRedisCluster(url, 2, FAST);
    cluster = current;
    const { runId, threadId, input } = await submitLead(current, 'plain then slow:60000');
    const childId = await vi.waitFor(async () => {
      const lead = await record(current.stores, runId);
      const child = (await current.stores.threadRuns.listRunsByStatus('running', { limit: 1000 })).items.find(
        (run) => run.parentRunId === lead.runId,
      );
      expect(child).toBeDefined();
      expect(await current.counters.get(`slow-started:${child!.runId}`)).toBe(1);
      return child!.runId;
    }, WAIT);
    const victim = await claimerOf(current, threadId, runId);
    await victim.kill();

    const done = await untilStatus(current.stores, runId, ['done']);
    expect(done.response).toBe('lead heard: "done after 2 results"');
    expect(await record(current.stores, childId)).toMatchObject({ status: 'done' });
    // one child, its committed work kept: `plain` ran once, the model was not asked its first turn again
    const childThread = (await record(current.stores, childId)).threadId;
    expect((await current.stores.threadRuns.listRuns(childThread)).items.map((run) => run.runId)).toEqual([
      childId,
    ]);
    expect(await current.counters.get(`exec:${childId}:plain_0_0`)).toBe(1);
    expect(await current.counters.get(`exec:${childId}:slow_1_0`)).toBe(2);
    expect(await current.counters.get(`model:${input}`)).toBe(3);
  }, 60_000);

  it("the server's cancel of a waiting lead cancels the child it waits on", async () => {
    const current = await createRedisCluster(url, 1, FAST);
    cluster = current;
    const { runId } = await submitLead(current, 'approve:1');
    const waiting = await untilStatus(current.stores, runId, ['waiting']);
    const cancelled = await current.api.commands.cancelRun(runId, 'not needed any more');
    expect(cancelled).toMatchObject({ status: 'done', termination: { type: 'cancelled' } });
    expect(await record(current.stores, childOf(waiting))).toMatchObject({
      status: 'done',
      termination: { type: 'cancelled', reason: 'not needed any more' },
    });
  }, 60_000);

  it("the server's cancel of a lead running in another process cancels its child there at once", async () => {
    const current = await createRedisCluster(url, 1, FAST);
    cluster = current;
    const { runId, input } = await submitLead(current, 'slow:60000');
    const childId = await vi.waitFor(async () => {
      const child = (await current.stores.threadRuns.listRunsByStatus('running', { limit: 1000 })).items.find(
        (run) => run.parentRunId === runId,
      );
      expect(await current.counters.get(`slow-started:${child?.runId}`)).toBe(1);
      return child!.runId;
    }, WAIT);
    const cancelled = await current.api.commands.cancelRun(runId, 'stop');
    expect(cancelled).toMatchObject({ status: 'done', termination: { type: 'cancelled', reason: 'stop' } });
    expect(await record(current.stores, childId)).toMatchObject({
      status: 'done',
      termination: { type: 'cancelled', reason: 'stop' },
    });
    expect(await current.counters.get(`model:${input}`)).toBe(1);
  }, 60_000);
});
