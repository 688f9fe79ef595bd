import { randomUUID } from 'node:crypto';
import { readToolCallStates } from '@awaken/contract';
import { createRedisStores } from '@awaken/store-redis';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type RuntimeWorker, forkRuntimeWorker } from '../../../test-support/fork-runtime-worker';
import { testKeys } from '../../../test-support/redis-agents';

/**
 * The run waits live in process O (`onSuspend: 'wait'`); process P
 * answers call_a by its tool call id only and process Q answers it by its ticket id only, differently,
 * at the same moment (`runtime.decide`). Exactly one is `accepted`, and it is the one applied.
 */
describe('one call named two ways from two processes at once', () => {
  const url = inject('redisUrl');
  const prefix = `rt-int:${randomUUID()}:`;
  const stores = createRedisStores({ redis: url, prefix });
  const keys = testKeys(prefix);
  let owner: RuntimeWorker;
  let p: RuntimeWorker;
  let q: RuntimeWorker;

  beforeAll(async () => {
    owner = forkRuntimeWorker({ url, prefix, scenario: 'approvals' });
    p = forkRuntimeWorker({ url, prefix, scenario: 'approvals' });
    q = forkRuntimeWorker({ url, prefix, scenario: 'approvals' });
    await Promise.all([owner.ready, p.ready, q.ready]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([owner?.stop(), p?.stop(), q?.stop()]);
    let cursor = '0';
    do {
      const [next, found] = await stores.redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (found.length > 0) await stores.redis.unlink(...found);
    } while (cursor !== '0');
    await stores.close();
  });

  it('never accepts both (10 trials, each way winning or losing)', async () => {
    for (let trial = 0; trial < 10; trial += 1) {
      const runId = `run-${randomUUID()}`;
      const finished = owner.call({ op: 'run', runId, threadId: `t-${runId}`, onSuspend: 'wait' });
      finished.catch(() => {});
      const ticketId = await vi.waitFor(
        async () => {
          const record = await stores.threadRuns.getRun(runId);
          const ticket = record?.waiting?.tickets.find((candidate) => candidate.toolCallId === 'call_a');
          expect(record?.status).toBe('waiting');
          expect(ticket).toBeDefined();
          return ticket!.ticketId;
        },
        { timeout: 15_000, interval: 20 },
      );
      const byCall = {
        toolCallId: 'call_a',
        decisionId: `call-${trial}`,
        action: 'resume',
        result: { note: 'yes' },
        updatedAt: 1,
      };
      const byTicket = {
        ticketId,
        decisionId: `ticket-${trial}`,
        action: 'cancel',
        reason: 'no',
        updatedAt: 1,
      };
      const [first, second] = await Promise.all([
        p.call({ op: 'decide', runId, decisions: [trial % 2 ? byCall : byTicket] }),
        q.call({ op: 'decide', runId, decisions: [trial % 2 ? byTicket : byCall] }),
      ]);
      if (!first.ok || !second.ok) throw new Error(JSON.stringify([first, second]));
      const receipts = [...first.receipts, ...second.receipts];
      const accepted = receipts.filter((receipt) => receipt.status === 'accepted');
      expect(accepted, JSON.stringify(receipts)).toHaveLength(1);
      // the loser: refused; `not_suspended` when the owner applied the winner before it was judged
      const loser = receipts.find((receipt) => receipt.status !== 'accepted');
      expect(loser?.status, JSON.stringify(receipts)).toBe('rejected');
      expect(['duplicate_conflict', 'not_suspended']).toContain(
        loser?.status === 'rejected' ? loser.reason : undefined,
      );
      await p.call({
        op: 'decide',
        runId,
        decisions: [
          {
            toolCallId: 'call_b',
            decisionId: `b-${trial}`,
            action: 'resume',
            result: { note: 'b' },
            updatedAt: 1,
          },
        ],
      });
      const outcome = await finished;
      expect(outcome).toMatchObject({ ok: true, result: { status: 'done' } });
      const events = await stores.eventLog.read(runId, { limit: 1000 });
      const applied = events.flatMap((event) =>
        event.type === 'tool_call_resumed' && event.toolCallId === 'call_a'
          ? [event.decision.decisionId]
          : [],
      );
      expect(applied).toEqual([accepted[0]!.decisionId]);
      const ran = Number((await stores.redis.get(keys.executions(runId, 'call_a'))) ?? 0);
      expect(ran).toBe(accepted[0]!.decisionId.startsWith('call-') ? 1 : 0);
      const record = await stores.threadRuns.getRun(runId);
      expect(readToolCallStates(record!).find((state) => state.callId === 'call_a')?.resume?.decisionId).toBe(
        accepted[0]!.decisionId,
      );
    }
  }, 120_000);
});
