import { expect, it, vi } from 'vitest';
import type { ServiceCluster } from './cluster';
import { AGENT_ID } from './scenario-agent';
import { WAIT, dispatchesOf, events, finishes, ids, record, toolCounts, untilStatus } from './suite-helpers';

/**
 * The suite's cases for interrupts, cancels, ordering, retries and injected input; registered inside
 * the suite's describe, on its cluster.
 */
export function commandCases(clusterOf: () => ServiceCluster): void {
  it('interrupts a run executing in another process', async () => {
    const cluster = clusterOf();
    const { runId, threadId } = ids();
    await cluster.api.submit({
      agentId: AGENT_ID,
      runId,
      threadId,
      input: 'slow:30000',
      mode: 'background',
    });
    await vi.waitFor(async () => expect(await cluster.counters.get(`slow-started:${runId}`)).toBe(1), WAIT);
    const interrupted = await cluster.api.commands.interruptThread(threadId, 'stop it');
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
    const cluster = clusterOf();
    const { runId, threadId } = ids();
    await cluster.api.submit({
      agentId: AGENT_ID,
      runId,
      threadId,
      input: 'slow:30000',
      mode: 'background',
    });
    await vi.waitFor(async () => expect(await cluster.counters.get(`slow-started:${runId}`)).toBe(1), WAIT);
    const cancelled = await cluster.api.commands.cancelRun(runId, 'stop now');
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
    const cluster = clusterOf();
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
    const cluster = clusterOf();
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
    const cluster = clusterOf();
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
    const cluster = clusterOf();
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
    const cluster = clusterOf();
    const { runId, threadId } = ids();
    await cluster.api.submit({
      agentId: AGENT_ID,
      runId,
      threadId,
      input: 'slow:600 #steer',
      mode: 'background',
    });
    await vi.waitFor(async () => expect(await cluster.counters.get(`slow-started:${runId}`)).toBe(1), WAIT);
    const steered = await cluster.api.commands.injectUserInput({
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
    const cluster = clusterOf();
    const { runId, threadId } = ids();
    await cluster.api.submit({
      agentId: AGENT_ID,
      runId,
      threadId,
      input: 'approve:1 #resume',
      mode: 'background',
    });
    await untilStatus(cluster.stores, runId, ['waiting']);
    const resumed = await cluster.api.commands.injectUserInput({
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
      cluster.api.commands.injectUserInput({ threadId, input: 'again', mode: 'resume' }),
    ).rejects.toMatchObject({ code: 'conflict' });
    await expect(
      cluster.api.commands.injectUserInput({ threadId, input: 'again', mode: 'steer' }),
    ).rejects.toMatchObject({ code: 'conflict' });
  });

  it('injects user input as the next run (queue) or after interrupting the thread (interrupt)', async () => {
    const cluster = clusterOf();
    const first = ids();
    await cluster.api.submit({
      agentId: AGENT_ID,
      ...first,
      input: 'slow:300 #inject',
      mode: 'background',
    });
    const queued = await cluster.api.commands.injectUserInput({
      threadId: first.threadId,
      input: 'plain #queued-input',
      mode: 'queue',
    });
    expect((await untilStatus(cluster.stores, queued.runId, ['done'])).response).toBe('done after 1 results');
    expect((await record(cluster.stores, first.runId)).termination?.type).toBe('natural_end');

    await cluster.api.submit({
      agentId: AGENT_ID,
      threadId: first.threadId,
      input: 'slow:30000',
      mode: 'background',
    });
    const interrupting = await cluster.api.commands.injectUserInput({
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
}
