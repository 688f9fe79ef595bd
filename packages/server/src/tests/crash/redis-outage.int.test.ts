import { randomUUID } from 'node:crypto';
import { type RedisServerHandle, startRedisServer } from '@awaken/testing';
import { createRedisStores } from '@awaken/store-redis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryCounters } from '../../../test-support/counters';
import { scenarioAgent } from '../../../test-support/scenario-agent';
import { createMailboxService } from '../../create-mailbox-service';
import type { MailboxService } from '../../types';

// Finding 2: a 0.5 s Redis outage failed every run in flight for good (`store_failure`, dead letter
// after one execution). A Redis restart must leave every run to finish, each tool executed once.
const RUNS = 4;
const WAIT = { timeout: 40_000, interval: 50 };

let redis: RedisServerHandle | undefined;
let service: MailboxService | undefined;
let stores: ReturnType<typeof createRedisStores> | undefined;
afterEach(async () => {
  await service?.stop({ force: true });
  await stores?.close();
  await redis?.stop();
});

describe.each([500, 3_000])('a Redis restart after %i ms', (outageMs) => {
  it('leaves every streaming run in flight to finish done, each tool once, none dead-lettered', {
    timeout: 60_000,
  }, async () => {
    redis = await startRedisServer({ appendOnly: true, appendFsync: 'always' });
    stores = createRedisStores({ redis: redis.url, prefix: `outage:${randomUUID()}:` });
    const counters = memoryCounters();
    service = createMailboxService({
      agents: [scenarioAgent(counters)],
      stores,
      concurrency: RUNS,
      leaseMs: 10_000,
      idleWaitMs: 200,
    });
    await service.start();
    const runs = await Promise.all(
      Array.from({ length: RUNS }, (_, index) =>
        service?.submit({ agentId: 'ops', input: `slow:1500 then plain #${index}`, mode: 'foreground' }),
      ),
    );
    // every run is inside its slow tool, so the outage hits them all in flight
    await vi.waitFor(async () => {
      for (const run of runs) expect(await counters.get(`slow-started:${run?.runId}`)).toBe(1);
    }, WAIT);
    const { port, dir } = redis;
    await redis.kill();
    await new Promise((resolve) => setTimeout(resolve, outageMs)); // the outage itself
    redis = await startRedisServer({ port, dir, appendOnly: true, appendFsync: 'always' });

    for (const run of runs) {
      const done = await run?.done();
      expect(done?.status).toBe('done');
      expect(done?.termination).toEqual({ type: 'natural_end' });
      await vi.waitFor(async () => {
        const dispatch = await stores?.mailbox.loadDispatch(run?.dispatchId as string);
        expect(dispatch).toMatchObject({ status: 'acked', attemptCount: 0 });
      }, WAIT);
    }
    for (const run of runs) {
      for (const call of ['slow_0_0', 'plain_1_0']) {
        expect(await counters.get(`exec:${run?.runId}:${call}`)).toBe(1);
      }
    }
  });
});
