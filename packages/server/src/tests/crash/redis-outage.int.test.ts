import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { AgentEvent, RunDispatch } from '@awaken/contract';
import { createRedisClient, createRedisStores } from '@awaken/store-redis';
import { type RedisServerHandle, startRedisServer } from '@awaken/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryCounters } from '../../../test-support/counters';
import { scenarioAgent } from '../../../test-support/scenario-agent';
import { createMailboxService } from '../../create-mailbox-service';
import type { MailboxService } from '../../types';

// A 0.5 s Redis outage failed every run in flight for good (`store_failure`, dead letter after one
// execution). A Redis restart must leave every run to finish, each tool executed once.
const RUNS = 4;
const WAIT = { timeout: 30_000, interval: 50 };

let redis: RedisServerHandle | undefined;
let service: MailboxService | undefined;
let stores: ReturnType<typeof createRedisStores> | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await service?.stop({ force: true });
  await stores?.close();
  await stores?.redis.quit().catch(() => stores?.redis.disconnect());
  await redis?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  service = undefined;
  stores = undefined;
  redis = undefined;
});

function describeDispatch(dispatch: RunDispatch | null): string {
  if (!dispatch) return 'no dispatch';
  const { dispatchId, status, attemptCount, lastError } = dispatch;
  return JSON.stringify({ dispatchId, status, attemptCount, lastError });
}

describe.each([500, 3_000])('a Redis restart after %i ms', (outageMs) => {
  it('leaves every streaming run in flight to finish done, each tool once, none dead-lettered', {
    timeout: 50_000,
  }, async () => {
    redis = await startRedisServer({ appendOnly: true, appendFsync: 'always' });
    dataDir = redis.dir; // the restarted server reuses it, and does not delete it
    const lines: string[] = [];
    // the client is built as the reference app builds it (apps/server/src/create-tenant-stores.ts)
    const client = createRedisClient(redis.url, {
      redis: { lazyConnect: false },
      log: (line) => lines.push(line),
    });
    stores = createRedisStores({ redis: client, prefix: `outage:${randomUUID()}:` });
    const reported: string[] = [];
    const counters = memoryCounters();
    service = createMailboxService({
      agents: [scenarioAgent(counters)],
      stores,
      concurrency: RUNS,
      leaseMs: 10_000,
      idleWaitMs: 200,
      onError: (error, where) => reported.push(`${where}: ${String(error)}`),
    });
    await service.start();
    const runs = await Promise.all(
      Array.from({ length: RUNS }, (_, index) =>
        (service as MailboxService).submit({
          agentId: 'ops',
          // the slow tool ends inside the outage: its events and checkpoint meet a dead connection
          input: `slow:300 then plain #${index}`,
          mode: 'foreground',
        }),
      ),
    );
    // every run is streamed, as an HTTP client follows it: the readers' blocking reads span the outage
    const streams = runs.map(async (run) => {
      const events: AgentEvent[] = [];
      try {
        for await (const event of run.events()) events.push(event);
      } catch (error) {
        return error; // asserted below, never an unhandled rejection
      }
      return events;
    });
    // every run is inside its slow tool, so the outage hits them all in flight
    await vi.waitFor(async () => {
      for (const run of runs) expect(await counters.get(`slow-started:${run.runId}`)).toBe(1);
    }, WAIT);
    const { port, dir } = redis;
    await redis.kill();
    await new Promise((resolve) => setTimeout(resolve, outageMs)); // the outage itself
    redis = await startRedisServer({ port, dir, appendOnly: true, appendFsync: 'always' });

    const diagnose = async () => {
      const dispatches = await Promise.all(runs.map((run) => stores?.mailbox.loadDispatch(run.dispatchId)));
      return [...dispatches.map((dispatch) => describeDispatch(dispatch ?? null)), ...reported].join('\n');
    };
    for (const run of runs) {
      const done = await run.done();
      expect(done, await diagnose()).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
      await vi.waitFor(async () => {
        const dispatch = await stores?.mailbox.loadDispatch(run.dispatchId);
        // acked at its first attempt: the clients waited the outage out, nothing had to be retried
        expect(dispatch, await diagnose()).toMatchObject({ status: 'acked', attemptCount: 0 });
      }, WAIT);
    }
    for (const events of await Promise.all(streams)) {
      if (!Array.isArray(events)) throw events;
      // each reader saw every event once, in order, up to the run's end
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
      expect(events.at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });
    }
    for (const run of runs) {
      for (const call of ['slow_0_0', 'plain_1_0']) {
        expect(await counters.get(`exec:${run.runId}:${call}`), `${run.runId} ${call}`).toBe(1);
      }
    }
    // the clients logged the outage as JSON lines, and its end
    const states = lines.map((line) => JSON.parse(line) as { state: string });
    expect(states.some((entry) => entry.state === 'error')).toBe(true);
    expect(states.at(-1)?.state).toBe('ready');
  });
});
