import { randomUUID } from 'node:crypto';
import type { AgentEvent, RunRecord, RunWaitingTicket, ToolCallDecision } from '@awaken/contract';
import { expect, vi } from 'vitest';
import type { ServiceStores } from '../src/types';
import type { ServiceCluster } from './cluster';

export const WAIT = { timeout: 20_000, interval: 20 };

/** A fresh run id and a thread of its own. */
export function ids(): { runId: string; threadId: string } {
  const runId = `run-${randomUUID()}`;
  return { runId, threadId: `thread-${runId}` };
}

/** A decision for a ticket, with an id derived from run and call (so a re-send is identical). */
export function decisionFor(runId: string, ticket: RunWaitingTicket, approve: boolean): ToolCallDecision {
  return {
    toolCallId: ticket.toolCallId,
    decisionId: `${runId}:${ticket.toolCallId}`,
    action: approve ? 'resume' : 'cancel',
    result: approve ? { approved: true } : null,
    ...(approve ? {} : { reason: 'denied by the test' }),
    updatedAt: Date.now(),
  };
}

export async function record(stores: ServiceStores, runId: string): Promise<RunRecord> {
  const found = await stores.threadRuns.getRun(runId);
  if (!found) throw new Error(`run ${runId} not stored`);
  return found;
}

/** Waits until the run is stored with one of `statuses`, and returns it. */
export async function untilStatus(
  stores: ServiceStores,
  runId: string,
  statuses: RunRecord['status'][],
): Promise<RunRecord> {
  return vi.waitFor(async () => {
    const current = await record(stores, runId);
    expect(statuses).toContain(current.status);
    return current;
  }, WAIT);
}

export function events(stores: ServiceStores, runId: string): Promise<AgentEvent[]> {
  return stores.eventLog.read(runId, { limit: 10_000 });
}

/** `run_finish` events of a run, by the status they report. */
export async function finishes(
  stores: ServiceStores,
  runId: string,
): Promise<{ done: number; waiting: number }> {
  const finished = (await events(stores, runId)).filter((event) => event.type === 'run_finish');
  return {
    done: finished.filter((event) => event.status === 'done').length,
    waiting: finished.filter((event) => event.status === 'waiting').length,
  };
}

export async function dispatchesOf(stores: ServiceStores, threadId: string, runId?: string) {
  const page = await stores.mailbox.listDispatches(threadId, { limit: 1000 });
  return page.items.filter((dispatch) => runId === undefined || dispatch.runId === runId);
}

/** Counters of one tool call of one run. */
export async function toolCounts(cluster: ServiceCluster, runId: string, toolCallId: string) {
  return {
    executions: await cluster.counters.get(`exec:${runId}:${toolCallId}`),
    completions: await cluster.counters.get(`done:${runId}:${toolCallId}`),
  };
}

/** No ack succeeded twice for one dispatch. */
export async function acksAtMostOnce(cluster: ServiceCluster): Promise<number> {
  const all = await cluster.counters.all();
  const acks = [...all].filter(([key]) => key.startsWith('ack:'));
  expect(acks.filter(([, count]) => count > 1)).toEqual([]);
  return acks.length;
}

/** Failures the services reported that a healthy cluster should never see. */
export function unexpectedErrors(cluster: ServiceCluster) {
  return cluster.errors().filter((error) => !/stale_claim|lease expired|interrupted/.test(error.message));
}
