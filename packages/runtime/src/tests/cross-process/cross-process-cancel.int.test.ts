import { randomUUID } from 'node:crypto';
import { decisionControl } from '@awaken/contract';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import { type RuntimeWorker, forkRuntimeWorker } from '../../../test-support/fork-runtime-worker';
import { historyIsValid } from '../../../test-support/harness';
import { type ScenarioName, scenarioAgent, testKeys } from '../../../test-support/redis-agents';
import {
  type RedisTestBed,
  approveWith,
  openTestBed,
  toolResults,
} from '../../../test-support/redis-harness';

describe('cancel across processes on Redis', () => {
  const url = inject('redisUrl');
  let bed: RedisTestBed | undefined;
  const workers: RuntimeWorker[] = [];

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await bed?.close();
    bed = undefined;
  });

  const runtimeHere = (test: RedisTestBed, scenario: ScenarioName) =>
    createAgentRuntime({
      agents: [scenarioAgent(test.stores.redis, test.stores.prefix, scenario)],
      stores: test.stores,
    });

  it('reaches a run live in another process: its tool aborts and it ends cancelled through its own checkpoint', async () => {
    const test = openTestBed(url, 'crash');
    bed = test;
    // the default 30 s lease is renewed every 10 s: the cancel must come through the inbox wake-up
    const a = forkRuntimeWorker({ url, prefix: test.stores.prefix, scenario: 'crash', slowMs: 60_000 });
    workers.push(a);
    await a.ready;
    const live = a.call({ op: 'run', runId: test.runId, threadId: test.threadId, onSuspend: 'wait' });
    live.catch(() => {});
    await vi.waitFor(async () => expect(await test.suspended()).toEqual(['call_2']), {
      timeout: 15_000,
      interval: 25,
    });
    await test.stores.inbox.put(test.runId, decisionControl(approveWith('call_2', 'go')));
    const keys = testKeys(test.stores.prefix);
    await vi.waitFor(async () => expect(await test.stores.redis.get(keys.slowStarted)).toBe('1'), {
      timeout: 5_000,
      interval: 10,
    });

    const sentAt = Date.now();
    const cancelled = await runtimeHere(test, 'crash').cancelRun(test.runId, 'stopped from another process');
    const abortedAt = Number(await test.stores.redis.get(keys.slowAbortedAt));
    console.info(
      `cross-process cancel: the live tool saw its abort ${abortedAt - sentAt} ms after cancelRun was called`,
    );

    const expected = { type: 'cancelled', reason: 'stopped from another process' };
    expect(cancelled).toMatchObject({ status: 'done', termination: expected });
    expect(await live).toMatchObject({ ok: true, result: { status: 'done', termination: expected } });
    expect(await test.run()).toMatchObject({ status: 'done', termination: expected });
    expect(abortedAt).toBeGreaterThanOrEqual(sentAt);
    expect(await test.completions('call_2')).toBe(0);
    const messages = await test.messages();
    expect(historyIsValid(messages)).toBe(true);
    expect(toolResults(messages).get('call_2')?.outcome).toBe('cancelled');
    const events = await test.events();
    expect(events.at(-1)).toMatchObject({ type: 'run_finish', status: 'done', termination: expected });
    expect(await test.stores.eventLog.isFinished(test.runId)).toBe(true);
    expect(await test.stores.inbox.peek(test.runId)).toEqual([]);
  }, 60_000);

  it('racing a decision or a checkpoint, reports only what was stored, and no tool result commits twice', async () => {
    const test = openTestBed(url, 'race');
    bed = test;
    const config = { url, prefix: test.stores.prefix, scenario: 'race' as const, slowMs: 20, leaseMs: 5_000 };
    const [approver, canceller] = [forkRuntimeWorker(config), forkRuntimeWorker(config)];
    workers.push(approver, canceller);
    await Promise.all(workers.map((worker) => worker.ready));
    const creator = runtimeHere(test, 'race');
    const keys = testKeys(test.stores.prefix);
    const seen = new Set<string>();
    for (let trial = 0; trial < 30; trial += 1) {
      const runId = `cancel-race-${trial}-${randomUUID()}`;
      const threadId = `thread-${runId}`;
      expect((await creator.runToCompletion({ agentId: 'agent', runId, threadId, input: 'go' })).status).toBe(
        'waiting',
      );
      const delayMs = trial % 6 === 0 ? 0 : (trial % 6) * 8; // 0: races the decision; later: its checkpoints
      const [approved, cancelled] = await Promise.all([
        approver.call({ op: 'resume', runId, decisions: [approveWith('call_s', 'yes', `ok_${trial}`)] }),
        new Promise((resolve) => setTimeout(resolve, delayMs)).then(() =>
          canceller.call({ op: 'cancel', runId, reason: 'changed my mind' }),
        ),
      ]);
      const context = `trial ${trial} (+${delayMs} ms): ${JSON.stringify({ approved, cancelled })}`;
      const record = await test.stores.threadRuns.getRun(runId);
      expect(record?.status, context).toBe('done');
      expect(cancelled.ok, context).toBe(true);
      if (cancelled.ok) expect(cancelled.result.termination, context).toEqual(record?.termination);
      if (approved.ok) expect(approved.result.termination, context).toEqual(record?.termination);
      else expect(approved.code, context).toBe('run_busy');
      const termination = record?.termination?.type ?? 'none';
      expect(['cancelled', 'natural_end'], context).toContain(termination);
      const executions = Number(await test.stores.redis.get(keys.executions(runId, 'call_s')));
      const completions = Number(await test.stores.redis.get(keys.completions(runId, 'call_s')));
      expect(executions, context).toBeLessThanOrEqual(1);
      const messages = (await test.stores.threadRuns.readMessages(threadId)).map((entry) => entry.message);
      expect(historyIsValid(messages), context).toBe(true);
      const outcome = toolResults(messages).get('call_s')?.outcome;
      // a result is committed only for a body that completed, and at most once
      expect(outcome === 'succeeded' ? 1 : 0, context).toBe(completions);
      if (termination === 'natural_end') expect(outcome, context).toBe('succeeded');
      seen.add(`${termination}/${outcome}`);

      // a later approval cannot run the tool again
      const late = await approver.call({
        op: 'resume',
        runId,
        decisions: [approveWith('call_s', 'late', `late_${trial}`)],
      });
      expect(late, context).toMatchObject({
        ok: true,
        result: { status: 'done', termination: record?.termination },
      });
      expect(Number(await test.stores.redis.get(keys.executions(runId, 'call_s'))), context).toBe(executions);
      expect(await test.stores.eventLog.isFinished(runId), context).toBe(true);
    }
    console.info(`cancel races (termination/tool outcome): ${[...seen].sort().join(', ')}`);
  }, 120_000);
});
