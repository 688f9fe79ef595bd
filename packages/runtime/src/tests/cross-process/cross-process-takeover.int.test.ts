import { decisionControl } from '@awaken/contract';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import {
  type RuntimeOutcome,
  type RuntimeWorker,
  forkRuntimeWorker,
} from '../../../test-support/fork-runtime-worker';
import { historyIsValid } from '../../../test-support/harness';
import { testKeys } from '../../../test-support/redis-agents';
import {
  type RedisTestBed,
  activations,
  approveWith,
  openTestBed,
  toolResults,
} from '../../../test-support/redis-harness';

/**
 * Process A holds a run while its approved `slow` tool executes; A is frozen (SIGSTOP) past its
 * lease; process B takes the run over and finishes it; then A is thawed (SIGCONT).
 */
describe('an activation whose lease is taken over', () => {
  const url = inject('redisUrl');
  let bed: RedisTestBed | undefined;
  const workers: RuntimeWorker[] = [];

  afterEach(async () => {
    for (const worker of workers.splice(0)) {
      if (worker.child.signalCode === null && worker.child.exitCode === null) worker.child.kill('SIGCONT');
      await worker.stop();
    }
    await bed?.close();
    bed = undefined;
  });

  it('stops when thawed, writing nothing; the new owner finished the run and the tool committed once', async () => {
    const test = openTestBed(url, 'crash');
    bed = test;
    const config = { url, prefix: test.stores.prefix, scenario: 'crash' as const, leaseMs: 600 };
    const a = forkRuntimeWorker({ ...config, slowMs: 60_000 });
    const b = forkRuntimeWorker({ ...config, slowMs: 10 });
    workers.push(a, b);
    await Promise.all([a.ready, b.ready]);

    const aDone = a.call({ op: 'run', runId: test.runId, threadId: test.threadId, onSuspend: 'wait' });
    await vi.waitFor(async () => expect(await test.suspended()).toEqual(['call_2']), {
      timeout: 15_000,
      interval: 25,
    });
    await test.stores.inbox.put(test.runId, decisionControl(approveWith('call_2', 'approved')));
    const keys = testKeys(test.stores.prefix);
    await vi.waitFor(async () => expect(await test.stores.redis.get(keys.slowStarted)).toBe('1'), {
      timeout: 5_000,
      interval: 10,
    });
    a.child.kill('SIGSTOP');

    // B is refused while A's lease is live, and takes the run once it lapsed
    let taken: RuntimeOutcome | undefined;
    await vi.waitFor(
      async () => {
        taken = await b.call({ op: 'resume', runId: test.runId });
        expect(taken).not.toMatchObject({ ok: false, code: 'run_busy' });
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(taken).toMatchObject({
      ok: true,
      result: { status: 'done', termination: { type: 'natural_end' } },
    });
    const afterB = await test.events();
    expect(afterB.at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });

    a.child.kill('SIGCONT');
    const aOutcome = await aDone;
    expect(aOutcome).toMatchObject({ ok: false, code: 'detached', reason: 'lease_lost' });
    // A wrote nothing after it lost the run: not an event, not a checkpoint
    expect(await test.events()).toEqual(afterB);
    expect(await test.stores.eventLog.isFinished(test.runId)).toBe(true);
    expect(await test.run()).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });

    // the slow tool started in A (its result never committed) and ran again in B: once per committed result
    expect(await test.executions('call_2')).toBe(2);
    expect(await test.completions('call_2')).toBe(1);
    expect(await test.executions('call_1')).toBe(1);
    const messages = await test.messages();
    expect(historyIsValid(messages)).toBe(true);
    expect(toolResults(messages).get('call_2')?.content).toMatchObject({ approval: { note: 'approved' } });
    const runs = activations(afterB);
    expect(runs.at(-1)?.[0]).toMatchObject({ type: 'run_start', resumed: true });
    expect(afterB.map((event) => event.seq)).toEqual(afterB.map((_, index) => index + 1));
  }, 60_000);
});
