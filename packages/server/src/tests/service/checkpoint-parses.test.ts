import { type ThreadRunStore, threadRunStoreInputs, trustedViewOf } from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryCounters } from '../../../test-support/counters';
import { AGENT_ID, scenarioAgent } from '../../../test-support/scenario-agent';
import { decisionFor } from '../../../test-support/suite-helpers';
import { FAST } from '../../../test-support/worker-config';
import { createMailboxService } from '../../create-mailbox-service';
import type { MailboxService, ServiceStores } from '../../types';

/**
 * The runtime calls its thread-run store through the store's trusted view, whose checkpoints skip the
 * input parse (the runtime built and checked them). The service hands the runtime its hot run cache,
 * a wrapper: the cache must offer the trusted view of the store it wraps, or every checkpoint of
 * every run is parsed again (three per plain run).
 */
describe('checkpoints through the mailbox service', () => {
  let service: MailboxService | undefined;
  afterEach(async () => {
    await service?.stop({ graceMs: 2_000 });
    service = undefined;
    vi.restoreAllMocks();
  });

  /** A started service over fresh memory stores; counts checkpoint parses and trusted checkpoints. */
  async function countingService(hotCacheSize: number) {
    const stores: ServiceStores = createMemoryStores();
    const parses = vi.spyOn(threadRunStoreInputs.commitCheckpoint, 'parse');
    const trusted = vi.spyOn(trustedViewOf(stores.threadRuns) as ThreadRunStore, 'commitCheckpoint');
    service = createMailboxService({
      agents: [scenarioAgent(memoryCounters())],
      stores,
      ...FAST,
      hotCacheSize,
    });
    await service.start();
    return { service, parses, trusted };
  }

  it.each([
    ['an answer, with the hot cache', 'hello', 16, 3],
    ['an answer, without it', 'hello', 0, 3],
    ['a tool call, with the hot cache', 'plain', 16, 5],
  ])(
    'takes the trusted path for every checkpoint of a run (%s): no parse',
    async (_name, input, size, least) => {
      const { service, parses, trusted } = await countingService(size);
      const run = await service.submit({ agentId: AGENT_ID, input, mode: 'background' });
      expect((await run.done()).status).toBe('done');
      expect(trusted.mock.calls.length).toBeGreaterThanOrEqual(least);
      expect(parses).not.toHaveBeenCalled();
    },
  );

  it('takes it too for a run resumed from the hot cache after a decision', async () => {
    const { service, parses, trusted } = await countingService(16);
    const run = await service.submit({ agentId: AGENT_ID, input: 'approve:1', mode: 'background' });
    const waiting = await run.settled();
    expect(waiting.status).toBe('waiting');
    expect(service.stats().hotRuns).toBe(1);
    const ticket = (await service.commands.getActiveRun(run.threadId))?.tickets[0];
    if (!ticket) throw new Error('the waiting run has no ticket');
    await service.commands.decide({ runId: run.runId }, decisionFor(run.runId, ticket, true));
    expect(await run.done()).toMatchObject({ status: 'done', response: 'done after 1 results' });
    expect(service.stats().hotResumes).toBe(1);
    expect(trusted.mock.calls.length).toBeGreaterThanOrEqual(5);
    expect(parses).not.toHaveBeenCalled();
  });

  it('still parses a checkpoint a caller sends to the store the service was given', async () => {
    const { service, parses } = await countingService(16);
    const run = await service.submit({ agentId: AGENT_ID, input: 'plain', mode: 'background' });
    const done = await run.done();
    const before = parses.mock.calls.length;
    await expect(
      service.stores.threadRuns.commitCheckpoint({
        trigger: 'run_finished',
        threadId: run.threadId,
        expectedMessageCount: 0,
        messages: [],
        run: { ...done, threadId: 'another-thread' },
      }),
    ).rejects.toMatchObject({ code: 'validation_failed' });
    expect(parses.mock.calls.length).toBe(before + 1);
  });
});
