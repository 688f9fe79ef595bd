import { AwakenError, type AgentEvent, type RunRecord } from '@awaken/contract';
import {
  createMemoryRunControlInbox,
  createMemoryRunEventLog,
  createMemoryThreadRunStore,
} from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { approve, historyIsValid } from '../../../test-support/harness';
import { type FaultPlan, faultPlan, faultyStores } from '../../../test-support/faulty-stores';
import { callsThenAnswer } from '../../../test-support/shared-stores';

type Recovery = 'resumeRun' | 'cancelRun';
const LEASE_MS = 600_000; // never renewed during a trial: the write sequence is the same every time

/**
 * One trial: a run whose first turn calls `plain` then the approval-gated `danger` (it suspends), then
 * a resume with the approval — on stores that fail the plan's N-th write. Then a healthy process
 * moves the run to its end with `resumeRun` (re-sending the approval) or `cancelRun`.
 */
async function trial(plan: FaultPlan, recovery: Recovery) {
  let time = 1_000_000;
  const clock = () => time;
  const healthy = {
    threadRuns: createMemoryThreadRunStore({ now: clock }),
    eventLog: createMemoryRunEventLog({ now: clock }),
    inbox: createMemoryRunControlInbox(),
  };
  const plain = recordingTool('plain');
  const danger = recordingTool('danger');
  const runtime = (stores: typeof healthy) =>
    createAgentRuntime({
      agents: [
        {
          id: 'agent',
          model: createScriptedModel(
            callsThenAnswer([
              { id: 'p', name: 'plain' },
              { id: 'd', name: 'danger' },
            ]),
          ),
          tools: [plain.tool, danger.tool],
          plugins: [approvalPlugin(['danger'])],
        },
      ],
      stores,
      runLease: { leaseMs: LEASE_MS },
    });
  const ids = { agentId: 'agent', runId: 'r', threadId: 't', input: 'go' };
  const decision = approve('d', { ok: true }, 'd1');

  const failing = runtime(faultyStores(healthy, plan));
  const first = await failing.runToCompletion(ids).catch((error: unknown) => error);
  const second = await failing
    .resumeRun('r', { decisions: [decision] })
    .result.catch((error: unknown) => error);
  for (const outcome of [first, second]) {
    // a failure surfaces as an AwakenError, never a raw TypeError / RangeError
    if (outcome instanceof Error) expect(AwakenError.isInstance(outcome), String(outcome)).toBe(true);
  }

  time += LEASE_MS + 1; // a lease whose release failed lapses
  const next = runtime(healthy);
  let record: RunRecord | null = null;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    record = await healthy.threadRuns.getRun('r');
    if (record?.status === 'done' && (await healthy.eventLog.isFinished('r'))) break;
    if (record === null) await next.runToCompletion(ids);
    else if (recovery === 'cancelRun') await next.cancelRun('r', 'recovery');
    else await next.resumeRun('r', { decisions: [decision] }).result;
  }
  const events = await healthy.eventLog.read('r');
  const messages = (await healthy.threadRuns.readMessages('t')).map((entry) => entry.message);
  return { record, events, messages, plain, danger, thread: await healthy.threadRuns.getThread('t') };
}

function expectConsistent(outcome: Awaited<ReturnType<typeof trial>>, recovery: Recovery, at: string): void {
  const { record, events, messages } = outcome;
  expect(record?.status, at).toBe('done');
  const allowed = recovery === 'cancelRun' ? ['cancelled', 'natural_end', 'error'] : ['natural_end', 'error'];
  expect(allowed, at).toContain(record?.termination?.type);
  // the history the model would read next is valid: every call has exactly one result
  expect(historyIsValid(messages), at).toBe(true);
  for (const id of ['p', 'd']) {
    expect(
      messages.filter((message) => message.role === 'tool' && message.toolCallId === id).length,
      at,
    ).toBeLessThanOrEqual(1);
  }
  // no tool result committed twice: a body ran again only when its earlier result was never stored
  const committed = (id: string) =>
    messages.some(
      (message) => message.role === 'tool' && message.toolCallId === id && message.outcome === 'succeeded',
    );
  if (committed('p')) expect(outcome.plain.count('p'), at).toBeGreaterThanOrEqual(1);
  if (committed('d')) expect(outcome.danger.count('d'), at).toBeGreaterThanOrEqual(1);
  expect(outcome.danger.count('d'), at).toBeLessThanOrEqual(2);
  // the event log matches the record: dense seqs, closed by the one run_finish that reports `done`
  expect(
    events.map((event) => event.seq),
    at,
  ).toEqual(events.map((_, index) => index + 1));
  const finishes = events.filter(
    (event): event is Extract<AgentEvent, { type: 'run_finish' }> => event.type === 'run_finish',
  );
  expect(
    finishes.filter((event) => event.status === 'done'),
    at,
  ).toHaveLength(1);
  expect(events.at(-1), at).toMatchObject({
    type: 'run_finish',
    status: 'done',
    termination: record?.termination,
  });
  expect(outcome.thread?.activeRunId, at).toBeUndefined();
  expect(outcome.thread?.openRunId, at).toBeUndefined();
}

describe('fault injection: the N-th store write fails, for every N of a run with a suspension and a resume', () => {
  it.each([
    ['resumeRun', 1],
    ['cancelRun', 1],
    ['resumeRun', 3],
    ['cancelRun', 3],
  ] as const)(
    'every run reaches a consistent end through %s (%i write(s) failing from N on)',
    async (recovery, burst) => {
      const clean = faultPlan();
      const reference = await trial(clean, recovery);
      expect(reference.record).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
      expect(clean.writes).toBeGreaterThan(20);
      const ends = new Map<string, number>();
      for (let failAt = 1; failAt <= clean.writes; failAt += 1) {
        const plan = faultPlan(failAt, burst);
        const outcome = await trial(plan, recovery);
        expectConsistent(outcome, recovery, `write ${failAt} (${clean.log[failAt - 1]}) failed`);
        const end = outcome.record?.termination?.type ?? 'none';
        ends.set(end, (ends.get(end) ?? 0) + 1);
      }
      console.info(
        `fault injection (${recovery}, ${burst} failing): ${clean.writes} injection points, all consistent; ends: ${JSON.stringify(Object.fromEntries(ends))}`,
      );
    },
  );
});
