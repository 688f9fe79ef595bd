import { randomUUID } from 'node:crypto';
import { type AgentEvent, decisionControl } from '@awaken/contract';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { type RedisStores, createRedisStores } from '../../create-redis-stores';
import { deleteKeys } from '../../../test-support/redis-harness';

const event = (runId: string, seq: number): AgentEvent => ({
  type: 'text_delta',
  runId,
  seq,
  at: 1_700_000_000_000 + seq,
  messageId: 'm1',
  delta: `chunk ${seq}`,
});

describe('key prefixes on one Redis', () => {
  const opened: RedisStores[] = [];
  const open = (prefix: string) => {
    const stores = createRedisStores({ redis: inject('redisUrl'), prefix });
    opened.push(stores);
    return stores;
  };
  afterEach(async () => {
    for (const stores of opened.splice(0)) {
      await deleteKeys(stores.redis, stores.prefix);
      await stores.close();
    }
  });

  it('never show one prefix the dispatches, epochs, wake-ups, threads, events or decisions of another', async () => {
    const base = `iso-${randomUUID()}`;
    const a = open(`${base}-a`);
    const b = open(`${base}-b`);
    const bWoken = b.mailbox.waitForWork({ timeoutMs: 400 });
    const dispatch = await a.mailbox.enqueue({ threadId: 'thread-1', runId: 'run-1' });
    await a.mailbox.interrupt('thread-2');
    await a.threadRuns.createThread({ id: 'thread-1' });
    await a.eventLog.append('run-1', [event('run-1', 1)]);
    let bDecisionWakeUps = 0;
    const unsubscribe = await b.inbox.subscribe('run-1', () => {
      bDecisionWakeUps += 1;
    });
    let sentinelWakeUps = 0;
    const unsubscribeSentinel = await b.inbox.subscribe('sentinel', () => {
      sentinelWakeUps += 1;
    });
    const decision = decisionControl({ decisionId: 'd1', toolCallId: 'c1', action: 'resume', updatedAt: 1 });
    expect(await a.inbox.put('run-1', decision)).toBe('stored');
    // b's subscriber gets messages in publish order: once the later sentinel arrived, a wake-up
    // wrongly caused by a's put would have arrived before it
    await b.inbox.put('sentinel', decision);
    await vi.waitFor(() => expect(sentinelWakeUps).toBe(1));
    expect(bDecisionWakeUps).toBe(0);

    expect(await bWoken).toBe(false);
    expect(await b.mailbox.claim({ workerId: 'w', limit: 10, leaseMs: 10_000 })).toEqual([]);
    expect(await b.mailbox.loadDispatch(dispatch.dispatchId)).toBeNull();
    expect(await b.mailbox.threadEpoch('thread-2')).toBe(0);
    expect(await b.threadRuns.getThread('thread-1')).toBeNull();
    expect(await b.eventLog.lastSeq('run-1')).toBe(0);
    expect(await b.inbox.peek('run-1')).toEqual([]);
    expect(await b.inbox.put('run-1', decision)).toBe('stored');
    await vi.waitFor(() => expect(bDecisionWakeUps).toBe(1));
    await unsubscribe();
    await unsubscribeSentinel();
    expect((await a.mailbox.claim({ workerId: 'w', limit: 10, leaseMs: 10_000 })).length).toBe(1);
  });
});
