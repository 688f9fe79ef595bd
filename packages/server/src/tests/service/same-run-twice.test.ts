import { randomUUID } from 'node:crypto';
import { createMemoryStores } from '@awaken/store-memory';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryCounters } from '../../../test-support/counters';
import { AGENT_ID, scenarioAgent } from '../../../test-support/scenario-agent';
import { FAST } from '../../../test-support/worker-config';
import { createMailboxService } from '../../create-mailbox-service';
import type { MailboxService, ServiceStores } from '../../types';

/**
 * Memory stores whose `getRun` of one id answers `null` once when armed: what a request sees when it
 * checks for its run id just before a parallel copy of itself creates the run.
 */
function racingStores(): { stores: ServiceStores; missOnce(runId: string): void } {
  const memory = createMemoryStores();
  let miss: string | undefined;
  const threadRuns = new Proxy(memory.threadRuns, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== 'getRun') return typeof value === 'function' ? value.bind(target) : value;
      return async (runId: string) => {
        if (runId !== miss) return target.getRun(runId);
        miss = undefined;
        return null;
      };
    },
  });
  return { stores: { ...memory, threadRuns }, missOnce: (runId) => (miss = runId) };
}

let service: MailboxService | undefined;
afterEach(async () => {
  await service?.stop({ graceMs: 1_000 });
});

describe('a submit sent twice under one run id', () => {
  it("the copy that checked before the run existed never cancels it to make room for itself (ifBusy 'interrupt')", async () => {
    const { stores, missOnce } = racingStores();
    service = createMailboxService({ agents: [scenarioAgent(memoryCounters())], stores, ...FAST });
    await service.start();
    const runId = `run-${randomUUID()}`;
    const request = {
      agentId: AGENT_ID,
      threadId: `thread-${randomUUID()}`,
      runId,
      input: 'approve:1',
      ifBusy: 'interrupt' as const,
    };
    const first = await service.submit(request);
    expect((await first.settled()).status).toBe('waiting');
    missOnce(runId);
    await expect(service.submit(request)).rejects.toMatchObject({
      code: 'conflict',
      details: { runId },
    });
    expect(await stores.threadRuns.getRun(runId)).toMatchObject({ status: 'waiting' });
  });
});
