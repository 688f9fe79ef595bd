import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import {
  type RuntimeOutcome,
  type RuntimeWorker,
  forkRuntimeWorker,
} from '../../../test-support/fork-runtime-worker';
import { historyIsValid } from '../../../test-support/harness';
import { scenarioAgent, testKeys } from '../../../test-support/redis-agents';
import {
  type RedisTestBed,
  approveWith,
  openTestBed,
  toolResults,
} from '../../../test-support/redis-harness';

const TRIALS = 200;

/**
 * Two long-lived worker processes share one Redis. In each trial this process leaves a run waiting
 * for the approval of its slow tool, then both workers call `resumeRun` on it at the same moment,
 * each with its own approval. Exactly one activation may run the tool.
 */
describe('two processes racing resumeRun on one waiting run', () => {
  const url = inject('redisUrl');
  let bed: RedisTestBed;
  let workers: RuntimeWorker[] = [];

  beforeAll(async () => {
    bed = openTestBed(url, 'race');
    workers = ['a', 'b'].map(() =>
      forkRuntimeWorker({ url, prefix: bed.stores.prefix, scenario: 'race', slowMs: 25 }),
    );
    await Promise.all(workers.map((worker) => worker.ready));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await bed.close();
  });

  it(`runs every approved tool body exactly once in ${TRIALS} trials; the loser gets run_busy`, async () => {
    const { stores } = bed;
    const keys = testKeys(stores.prefix);
    const creator = createAgentRuntime({
      agents: [scenarioAgent(stores.redis, stores.prefix, 'race')],
      stores,
    });
    const tally = { busy: 0, bothFinished: 0 };
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const runId = `race-${trial}-${randomUUID()}`;
      const threadId = `thread-${runId}`;
      const waiting = await creator.runToCompletion({ agentId: 'agent', runId, threadId, input: 'go' });
      expect(waiting.status).toBe('waiting');
      const outcomes: RuntimeOutcome[] = await Promise.all(
        workers.map((worker, index) =>
          worker.call({
            op: 'resume',
            runId,
            decisions: [approveWith('call_s', `worker ${index}`, `ok_${index}_${trial}`)],
          }),
        ),
      );
      const context = `trial ${trial}: ${JSON.stringify(outcomes)}`;
      for (const outcome of outcomes) {
        if (outcome.ok)
          expect(outcome.result, context).toMatchObject({
            status: 'done',
            termination: { type: 'natural_end' },
          });
        else expect(outcome.code, context).toBe('run_busy');
      }
      expect(
        outcomes.some((outcome) => outcome.ok),
        context,
      ).toBe(true);
      if (outcomes.some((outcome) => !outcome.ok)) tally.busy += 1;
      else tally.bothFinished += 1;
      expect(Number(await stores.redis.get(keys.executions(runId, 'call_s'))), context).toBe(1);
      expect(Number(await stores.redis.get(keys.completions(runId, 'call_s'))), context).toBe(1);
      const record = await stores.threadRuns.getRun(runId);
      expect(record, context).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
      const messages = (await stores.threadRuns.readMessages(threadId)).map((entry) => entry.message);
      expect(historyIsValid(messages), context).toBe(true);
      expect(toolResults(messages).get('call_s')?.outcome, context).toBe('succeeded');
      const events = await stores.eventLog.read(runId);
      expect(
        events.map((event) => event.seq),
        context,
      ).toEqual(events.map((_, index) => index + 1));
      expect(await stores.eventLog.isFinished(runId), context).toBe(true);
    }
    // the figure for the record: how often the two activations really overlapped
    console.info(
      `resumeRun race: ${TRIALS} trials, ${tally.busy} refused with run_busy, ${tally.bothFinished} sequential`,
    );
    expect(tally.busy + tally.bothFinished).toBe(TRIALS);
    expect(tally.busy).toBeGreaterThan(0);
  }, 300_000);
});
