import { randomUUID } from 'node:crypto';
import type { MailboxStore } from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryCounters } from '../../../test-support/counters';
import { AGENT_ID, scenarioAgent } from '../../../test-support/scenario-agent';
import { WAIT } from '../../../test-support/suite-helpers';
import { FAST } from '../../../test-support/worker-config';
import { createMailboxService } from '../../create-mailbox-service';
import type { MailboxService } from '../../types';

/** The mailbox with every call recorded by operation name, in call order. */
function recordingMailbox(mailbox: MailboxStore, calls: string[]): MailboxStore {
  return new Proxy(mailbox, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const first = args[0] as { result?: unknown } | undefined;
        calls.push(property === 'ack' && first?.result !== undefined ? 'ack+result' : String(property));
        return value.apply(target, args);
      };
    },
  });
}

// A foreground run costs the mailbox two writes: enqueue + claim + start record in one, the run
// result + ack in one; no other worker is woken for it and no epoch is read before settling.
describe('the mailbox writes of a foreground run', () => {
  let service: MailboxService | undefined;
  afterEach(() => service?.stop({ graceMs: 2_000 }));

  function start(concurrency: number) {
    const calls: string[] = [];
    const stores = createMemoryStores();
    const mailbox = recordingMailbox(stores.mailbox, calls);
    service = createMailboxService({
      agents: [scenarioAgent(memoryCounters())],
      ...FAST,
      concurrency,
      stores: { ...stores, mailbox },
    });
    return { calls, service };
  }

  it('claims as it enqueues, records the start with the claim and acks with the result', async () => {
    const { calls, service } = start(0);
    // ifBusy 'queue': no interrupt of the thread first (that is a write of the submit, not of the run)
    const run = await service.submit({ agentId: AGENT_ID, input: `plain #${randomUUID()}`, ifBusy: 'queue' });
    expect((await run.done()).response).toBe('done after 1 results');
    // the run record is done before its dispatch is settled
    const dispatch = await vi.waitFor(async () => {
      const settled = await service.dispatch(run.dispatchId);
      expect(settled).toMatchObject({ status: 'acked', runStatus: 'done', attemptCount: 0 });
      return settled;
    }, WAIT);
    expect(dispatch?.dispatchInstanceId).toEqual(expect.any(String));
    const writes = calls.filter((name) => !['loadDispatch', 'listDispatches', 'now'].includes(name));
    expect(writes).toEqual(['enqueueAndClaim', 'ack+result']);
  });

  it('leaves an idle worker asleep: the run is executed by the process that submitted it', async () => {
    const { calls, service } = start(2);
    await service.start();
    const before = calls.filter((name) => name === 'claim').length;
    const run = await service.submit({ agentId: AGENT_ID, input: `plain #${randomUUID()}` });
    await run.done();
    await vi.waitFor(
      async () => expect((await service.dispatch(run.dispatchId))?.status).toBe('acked'),
      WAIT,
    );
    expect(calls.filter((name) => name === 'claim').length).toBe(before);
    expect(calls).not.toContain('claimDispatch');
  });

  it('falls back to claiming once the thread is free when the run it interrupts still holds it', async () => {
    const { calls, service } = start(0);
    const first = await service.submit({ agentId: AGENT_ID, input: `slow:300 #${randomUUID()}` });
    const second = await service.submit({
      agentId: AGENT_ID,
      threadId: first.threadId,
      input: `plain #${randomUUID()}`,
    });
    expect((await second.done()).response).toBe('done after 1 results');
    expect(calls).toContain('claimDispatch');
    await vi.waitFor(
      async () =>
        expect(await service.dispatch(second.dispatchId)).toMatchObject({
          status: 'acked',
          runStatus: 'done',
        }),
      WAIT,
    );
  });
});
