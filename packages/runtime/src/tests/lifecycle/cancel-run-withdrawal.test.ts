import type { ThreadRunStore } from '@awaken/contract';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approve } from '../../../test-support/harness';
import { createSharedStores } from '../../../test-support/shared-stores';
import { createAgentRuntime } from '../../create-agent-runtime';

/** A store whose `run_finished` checkpoint waits until the test opens it. */
function gatedFinalCheckpoint(store: ThreadRunStore) {
  let open: () => void = () => {};
  let entered: () => void = () => {};
  const reached = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const gated: ThreadRunStore = Object.create(store);
  gated.commitCheckpoint = async (checkpoint) => {
    if (checkpoint.trigger === 'run_finished') {
      entered();
      await gate;
    }
    return store.commitCheckpoint(checkpoint);
  };
  return { store: gated, reached, open };
}

describe('cancelRun leaves nothing behind once it settled', () => {
  it('a cancelRun that rejected run_busy does not cancel the run later', async () => {
    const s = createSharedStores();
    const runtime = s.runtime({ cancelWaitMs: 50 });
    const first = await runtime.runToCompletion({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' });
    expect(first.status).toBe('waiting');
    // another process holds the run (a server holding it under its mailbox claim, say)
    const held = await s.store.acquireRun('r', { owner: 'other-process', leaseMs: 60_000 });
    await expect(runtime.cancelRun('r', 'stop it')).rejects.toMatchObject({ code: 'run_busy' });
    expect(await s.inbox.peek('r')).toEqual([]);
    await s.store.releaseRun(held);

    const resumed = runtime.resumeRun('r', { decisions: [approve('a')] });
    expect(await resumed.receipts).toEqual([expect.objectContaining({ status: 'accepted' })]);
    await s.danger.started('a');
    s.danger.release('a', { ok: 1 });
    expect((await resumed.result).termination).toEqual({ type: 'natural_end' });
    expect(s.danger.executions('a')).toBe(1);
  });

  it('a cancel that reached a run finishing naturally does not stay in its inbox', async () => {
    const s = createSharedStores();
    const gated = gatedFinalCheckpoint(s.store);
    const owner = createAgentRuntime({
      agents: [{ id: 'agent', model: createScriptedModel(() => ({ text: 'hello' })) }],
      stores: { threadRuns: gated.store, eventLog: s.eventLog, inbox: s.inbox },
    });
    const live = owner.run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'hi' });
    await gated.reached;
    // another process cancels while the owner stores the natural end
    const cancelled = s.runtime().cancelRun('r', 'too late');
    await expect
      .poll(async () => (await s.inbox.peek('r')).map((control) => control.kind))
      .toEqual(['cancel']);
    gated.open();
    expect((await live.result).termination).toEqual({ type: 'natural_end' });
    // the store holds the natural end: that is what cancelRun reports
    expect((await cancelled).termination).toEqual({ type: 'natural_end' });
    expect(await s.inbox.peek('r')).toEqual([]);
  });
});
