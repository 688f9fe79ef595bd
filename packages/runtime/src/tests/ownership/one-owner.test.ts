import { AwakenError, type ThreadRunStore } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { approve } from '../../../test-support/harness';
import { createSharedStores } from '../../../test-support/shared-stores';

/** A store whose checkpoints fail (as a Redis blip would) while `failing` is true. */
function blipping(inner: ThreadRunStore) {
  const state = { failing: false };
  const store: ThreadRunStore = Object.assign(Object.create(inner) as ThreadRunStore, {
    commitCheckpoint: (checkpoint: Parameters<ThreadRunStore['commitCheckpoint']>[0]) =>
      state.failing
        ? Promise.reject(new AwakenError('store_failure', 'redis: connection lost', { retryable: true }))
        : inner.commitCheckpoint(checkpoint),
  });
  return { store, state };
}

describe('one owner per run (two runtimes on one store stand for two processes)', () => {
  it.each([
    ['the store alone', false],
    ['an event log and an inbox', true],
  ])(
    'lets only one of two concurrent resumeRun calls run the approved tool (%s); the other gets run_busy',
    async (_label, full) => {
      const shared = createSharedStores();
      const options = full ? {} : { stores: { inbox: undefined, eventLog: undefined } };
      const first = shared.runtime(options);
      const second = shared.runtime(options);
      const waiting = await first.runToCompletion({ agentId: 'agent', input: 'go' });
      expect(waiting.status).toBe('waiting');

      const a = first.resumeRun(waiting.runId, { decisions: [approve('a', { by: 'first' }, 'd1')] });
      const b = second.resumeRun(waiting.runId, { decisions: [approve('a', { by: 'second' }, 'd2')] });
      await shared.danger.started('a');
      shared.danger.release('a');
      const [resultA, resultB] = await Promise.allSettled([a.result, b.result]);

      expect(shared.danger.executions('a')).toBe(1);
      const outcomes = [resultA, resultB].map((settled) =>
        settled.status === 'fulfilled' ? settled.value.status : (settled.reason as AwakenError).code,
      );
      expect(outcomes.sort()).toEqual(['done', 'run_busy']);
      const stored = await shared.store.getRun(waiting.runId);
      expect(stored).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
      // approving again does not run the tool a second time
      const again = await first.resumeRun(waiting.runId, { decisions: [approve('a', {}, 'd3')] }).result;
      expect(again.status).toBe('done');
      expect(shared.danger.executions('a')).toBe(1);
    },
  );

  it('cancelRun from another runtime reaches the live run; a later approval cannot run the tool', async () => {
    const shared = createSharedStores();
    const owner = shared.runtime();
    const other = shared.runtime();
    const live = owner.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
    await expect.poll(async () => (await shared.store.getRun(live.runId))?.status).toBe('waiting');

    const cancelled = await other.cancelRun(live.runId, 'closed elsewhere');
    expect(cancelled).toMatchObject({
      status: 'done',
      termination: { type: 'cancelled', reason: 'closed elsewhere' },
    });
    expect(await live.result).toMatchObject({ status: 'done', termination: { type: 'cancelled' } });
    expect(await live.decide(approve('a'))).toMatchObject([{ status: 'rejected', reason: 'run_finished' }]);
    expect(shared.danger.executions('a')).toBe(0);
    expect(await shared.store.getRun(live.runId)).toMatchObject({
      status: 'done',
      termination: { type: 'cancelled' },
    });
  });

  it('cancelRun never reports cancelled when the cancellation was not stored', async () => {
    const shared = createSharedStores();
    const waiting = await shared.runtime().runToCompletion({ agentId: 'agent', input: 'go' });
    const blip = blipping(shared.store);
    const canceller = shared.runtime({ stores: { threadRuns: blip.store } });
    blip.state.failing = true;
    const attempt = canceller.cancelRun(waiting.runId, 'stop');
    await expect(attempt).rejects.toMatchObject({ code: 'store_failure' });
    expect(await shared.store.getRun(waiting.runId)).toMatchObject({ status: 'waiting' });
    // nothing is stuck: once the store answers again, the cancellation goes through
    blip.state.failing = false;
    expect(await canceller.cancelRun(waiting.runId, 'stop')).toMatchObject({
      status: 'done',
      termination: { type: 'cancelled', reason: 'stop' },
    });
    expect(await shared.store.getRun(waiting.runId)).toMatchObject({ status: 'done' });
  });
});
