import { AwakenError, type InferenceRequest } from '@awaken/contract';
import {
  createMemoryRunControlInbox,
  createMemoryRunEventLog,
  createMemoryThreadRunStore,
} from '@awaken/store-memory';
import { type ScriptedTurn, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import { recordingTool } from '../../../test-support/approval';
import { historyIsValid } from '../../../test-support/harness';
import { type FaultPlan, faultPlan, faultyStores } from '../../../test-support/faulty-stores';

const LEASE_MS = 600_000;

/** Step 1 calls `a`, step 2 calls `b`, step 3 answers. */
function script(request: InferenceRequest): ScriptedTurn {
  const results = request.messages.filter((message) => message.role === 'tool').length;
  if (results === 0) return { toolCalls: [{ id: 'a1', name: 'a', arguments: {} }] };
  if (results === 1) return { toolCalls: [{ id: 'b1', name: 'b', arguments: {} }] };
  return { text: 'final answer' };
}

/**
 * One trial: a run on stores that fail the plan's N-th write (and the `burst - 1` after it, an outage
 * that outlasts the terminal checkpoint's retries), then a healthy process resumes it once.
 */
async function trial(plan: FaultPlan, transientStoreErrors?: 'end_run' | 'interrupt') {
  let time = 1_000_000;
  const clock = () => time;
  const healthy = {
    threadRuns: createMemoryThreadRunStore({ now: clock }),
    eventLog: createMemoryRunEventLog({ now: clock }),
    inbox: createMemoryRunControlInbox(),
  };
  const a = recordingTool('a');
  const b = recordingTool('b');
  const runtime = (stores: typeof healthy) =>
    createAgentRuntime({
      agents: [{ id: 'agent', model: createScriptedModel(script), tools: [a.tool, b.tool] }],
      stores,
      runLease: { leaseMs: LEASE_MS },
      ...(transientStoreErrors ? { transientStoreErrors } : {}),
    });
  const ids = { agentId: 'agent', runId: 'r', threadId: 't', input: 'go' };
  const first = await runtime(faultyStores(healthy, plan))
    .runToCompletion(ids)
    .catch((error: unknown) => error);
  const left = await healthy.threadRuns.getRun('r');
  const committed = (await healthy.threadRuns.readMessages('t')).map((entry) => entry.message);
  time += LEASE_MS + 1; // a lease whose release failed lapses
  const resumed = left === null ? undefined : await runtime(healthy).resumeRun('r').result;
  const messages = (await healthy.threadRuns.readMessages('t')).map((entry) => entry.message);
  return { first, left, committed, resumed, messages, a, b };
}

describe('a retryable store failure during an activation', () => {
  it('ends the run with error by default (a runtime used alone)', async () => {
    const clean = faultPlan();
    await trial(clean);
    // the checkpoint that commits `a`'s result fails once; the terminal checkpoint still succeeds
    const index = clean.log.indexOf(
      'store.commitCheckpoint',
      clean.log.indexOf('store.commitCheckpoint') + 2,
    );
    const outcome = await trial(faultPlan(index + 1, 1));
    expect(outcome.first).toMatchObject({
      status: 'done',
      termination: { type: 'error', code: 'store_failure' },
    });
  });

  it('with interrupt, for every N: the run is left at its last checkpoint and finishes on resume, each committed tool once', async () => {
    const clean = faultPlan();
    const reference = await trial(clean, 'interrupt');
    expect(reference.first).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    expect(clean.writes).toBeGreaterThan(10);
    let leftMidRun = 0;
    for (let failAt = 1; failAt <= clean.writes; failAt += 1) {
      const at = `write ${failAt} (${clean.log[failAt - 1]}) failed`;
      const outcome = await trial(faultPlan(failAt, 3), 'interrupt');
      // never an `error` end: either the activation finished before the failure hit (the failed write
      // came after the terminal checkpoint) or it rejected with the retryable store failure
      if (!AwakenError.isInstance(outcome.first)) {
        expect(outcome.first, at).toMatchObject({ termination: { type: 'natural_end' } });
      } else {
        expect(outcome.first, at).toMatchObject({ code: 'store_failure', retryable: true });
      }
      if (outcome.left === null) continue; // the run was never stored: nothing to resume
      if (outcome.left.status !== 'done') {
        leftMidRun += 1;
        expect(outcome.left.termination, at).toBeUndefined();
      }
      expect(outcome.resumed, at).toMatchObject({
        status: 'done',
        termination: { type: 'natural_end' },
        response: 'final answer',
      });
      expect(historyIsValid(outcome.messages), at).toBe(true);
      // a tool whose result was committed before the failure never ran again
      for (const [id, tool] of [
        ['a1', outcome.a],
        ['b1', outcome.b],
      ] as const) {
        const stored = outcome.committed.some(
          (message) => message.role === 'tool' && message.toolCallId === id,
        );
        if (stored) expect(tool.count(id), `${at}: ${id}`).toBe(1);
        else expect(tool.count(id), `${at}: ${id}`).toBeLessThanOrEqual(2);
        expect(
          outcome.messages.filter((message) => message.role === 'tool' && message.toolCallId === id),
          `${at}: ${id}`,
        ).toHaveLength(1);
      }
    }
    expect(leftMidRun).toBeGreaterThan(5);
  });
});
