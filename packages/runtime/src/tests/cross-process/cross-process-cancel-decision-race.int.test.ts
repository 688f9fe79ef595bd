import { randomUUID } from 'node:crypto';
import { decisionControl } from '@awaken/contract';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type RuntimeWorker, forkRuntimeWorker } from '../../../test-support/fork-runtime-worker';
import { historyIsValid } from '../../../test-support/harness';
import { testKeys } from '../../../test-support/redis-agents';
import {
  type RedisTestBed,
  approveWith,
  openTestBed,
  toolResults,
} from '../../../test-support/redis-harness';
import { readToolCallStates } from '@awaken/contract';

const TRIALS = 40;

/**
 * Adversarial: process A keeps a run live and waiting (`onSuspend: 'wait'`) for the approval of its
 * slow tool. In each trial, at nearly the same moment, this process writes the approval to the Redis control
 * inbox and process B calls `cancelRun`. Whichever wins, the outcome must be one consistent story:
 * the tool body ran at most once, a succeeded result means it completed once, both callers see the
 * stored outcome, the history is valid and the event log ends with that outcome.
 */
describe('cancel racing a decision for a run live in another process', () => {
  const url = inject('redisUrl');
  let bed: RedisTestBed;
  let owner: RuntimeWorker;
  let canceller: RuntimeWorker;

  beforeAll(async () => {
    bed = openTestBed(url, 'race');
    [owner, canceller] = ['a', 'b'].map(() =>
      forkRuntimeWorker({ url, prefix: bed.stores.prefix, scenario: 'race', slowMs: 15 }),
    ) as [RuntimeWorker, RuntimeWorker];
    await Promise.all([owner.ready, canceller.ready]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([owner.stop(), canceller.stop()]);
    await bed.close();
  });

  it(`tells one consistent story in ${TRIALS} trials`, async () => {
    const { stores } = bed;
    const keys = testKeys(stores.prefix);
    const tally = { cancelled: 0, natural_end: 0 };
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const runId = `cxd-${trial}-${randomUUID()}`;
      const threadId = `thread-${runId}`;
      const live = owner.call({ op: 'run', runId, threadId, onSuspend: 'wait' });
      await vi.waitFor(
        async () => {
          const record = await stores.threadRuns.getRun(runId);
          expect(record?.status).toBe('waiting');
        },
        { timeout: 15_000, interval: 10 },
      );
      const decision = approveWith('call_s', `trial ${trial}`, `ok_${trial}`);
      const [, cancel] = await Promise.all([
        stores.inbox.put(runId, decisionControl(decision)),
        // a varying head start for the decision, so both orders (and the overlap) occur
        new Promise((resolve) => setTimeout(resolve, (trial % 8) * 8)).then(() =>
          canceller.call({ op: 'cancel', runId, reason: `cancel ${trial}` }),
        ),
      ]);
      const ran = await live;
      const context = `trial ${trial}: ${JSON.stringify({ ran, cancel })}`;
      const record = await stores.threadRuns.getRun(runId);
      expect(record?.status, context).toBe('done');
      const termination = record?.termination;
      expect(['cancelled', 'natural_end'], context).toContain(termination?.type);
      if (termination?.type === 'cancelled' || termination?.type === 'natural_end')
        tally[termination.type] += 1;
      // both callers report exactly what the store holds
      expect(ran, context).toMatchObject({ ok: true, result: { status: 'done', termination } });
      expect(cancel, context).toMatchObject({ ok: true, result: { status: 'done', termination } });

      const executions = Number(await stores.redis.get(keys.executions(runId, 'call_s')));
      const completions = Number(await stores.redis.get(keys.completions(runId, 'call_s')));
      expect(executions, context).toBeLessThanOrEqual(1);
      const messages = (await stores.threadRuns.readMessages(threadId)).map((entry) => entry.message);
      expect(historyIsValid(messages), context).toBe(true);
      const result = toolResults(messages).get('call_s');
      if (result?.outcome === 'succeeded') expect(completions, context).toBe(1);
      if (termination?.type === 'natural_end') expect(result?.outcome, context).toBe('succeeded');
      const calls = readToolCallStates(record ?? ({} as never));
      expect(
        calls.filter((call) => call.status === 'suspended' || call.status === 'running'),
        context,
      ).toEqual([]);

      const events = await stores.eventLog.read(runId);
      expect(
        events.map((event) => event.seq),
        context,
      ).toEqual(events.map((_, index) => index + 1));
      expect(events.at(-1), context).toMatchObject({ type: 'run_finish', status: 'done' });
      expect(await stores.eventLog.isFinished(runId), context).toBe(true);
      // the decision never lingers: it was applied (recorded) or refused
      const pending = await stores.inbox.peek(runId);
      expect(
        pending.filter((control) => control.kind === 'decision'),
        context,
      ).toEqual([]);
    }
    console.info(
      `cancel vs decision across processes: ${TRIALS} trials, ${tally.cancelled} cancelled, ${tally.natural_end} approved first`,
    );
  }, 300_000);
});
