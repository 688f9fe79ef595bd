import { randomUUID } from 'node:crypto';
import type { AgentEventOf } from '@awaken/contract';
import { createRedisStores } from '@awaken/store-redis';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type HttpFixture, createHttpFixture, startRun } from '../../../test-support/http-fixture';

/**
 * Two server instances (each its own HTTP app, service and Redis
 * connections) over one Redis prefix. The same ticket is approved through one and denied through the
 * other, the second 0–40 ms after the first, and 30 different answers are sent at once. Per call:
 * exactly one 200 `accepted`; every other answer 409 (rejected); the tool ran iff the winner approved.
 */
const prefix = `decision-race:${randomUUID()}:`;
let one: HttpFixture;
let two: HttpFixture;
const clients: Array<ReturnType<typeof createRedisStores>> = [];
const WAIT = { timeout: 15_000, interval: 20 };

beforeAll(async () => {
  const url = inject('redisUrl');
  const stores = () => {
    const redis = createRedisStores({ redis: url, prefix });
    clients.push(redis);
    return {
      threadRuns: redis.threadRuns,
      mailbox: redis.mailbox,
      eventLog: redis.eventLog,
      inbox: redis.inbox,
    };
  };
  one = await createHttpFixture({ stores: { acme: stores() } });
  two = await createHttpFixture({ stores: { acme: stores() } });
});

afterAll(async () => {
  await one?.close();
  await two?.close();
  const [first] = clients;
  if (first) {
    let cursor = '0';
    do {
      const [next, keys] = await first.redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await first.redis.unlink(...keys);
    } while (cursor !== '0');
  }
  await Promise.all(clients.map((client) => client.close()));
});

async function waitingRun() {
  const run = await startRun(one, { input: 'approve:1' });
  const ticket = run.events.find(
    (event): event is AgentEventOf<'tool_call_suspended'> => event.type === 'tool_call_suspended',
  );
  if (!ticket) throw new Error('no ticket');
  return { runId: run.runId, toolCallId: ticket.toolCallId, ticketId: ticket.ticket.suspension.id };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Answer = { decisionId: string; approve: boolean; via: HttpFixture; delayMs: number };

async function send(runId: string, toolCallId: string, answer: Answer) {
  await sleep(answer.delayMs);
  const body = answer.approve
    ? { toolCallId, decisionId: answer.decisionId, result: { approved: true } }
    : { toolCallId, decisionId: answer.decisionId, action: 'cancel', reason: 'denied' };
  const response = await answer.via.json(`/v1/runs/${runId}/decision`, { body });
  return { answer, status: response.status, body: response.body };
}

async function settle(runId: string, toolCallId: string, answers: Answer[]) {
  const results = await Promise.all(answers.map((answer) => send(runId, toolCallId, answer)));
  const winners = results.filter((result) => result.status === 200);
  const done = await vi.waitFor(async () => {
    const run = await one.json(`/v1/runs/${runId}`);
    expect(run.body.status).toBe('done');
    return run.body;
  }, WAIT);
  const executions =
    ((await one.counters.get(`exec:${runId}:${toolCallId}`)) ?? 0) +
    ((await two.counters.get(`exec:${runId}:${toolCallId}`)) ?? 0);
  const events = await clients[0]!.eventLog.read(runId, { limit: 1000 });
  const applied = events.flatMap((event) =>
    event.type === 'tool_call_resumed' ? [event.decision.decisionId] : [],
  );
  return { results, winners, done, executions, applied };
}

describe('approve and deny of one ticket through two server instances on one Redis', () => {
  it('late denial sweep 0–40 ms: one 200 accepted, the other 409; the tool ran iff the winner approved', async () => {
    const reasons: Record<string, number> = {};
    for (let trial = 0; trial < 28; trial += 1) {
      const { runId, toolCallId } = await waitingRun();
      const delay = Math.round((trial * 40) / 27);
      const denyFirst = trial % 2 === 1;
      const answers: Answer[] = [
        { decisionId: `yes-${trial}`, approve: true, via: one, delayMs: denyFirst ? delay : 0 },
        { decisionId: `no-${trial}`, approve: false, via: two, delayMs: denyFirst ? 0 : delay },
      ];
      const { results, winners, executions, applied } = await settle(runId, toolCallId, answers);
      expect(winners, `trial ${trial} (${delay} ms)`).toHaveLength(1);
      const winner = winners[0]!;
      expect(winner.body.receipts[0]).toMatchObject({ status: 'accepted' });
      for (const loser of results.filter((result) => result !== winner)) {
        expect(loser.status, `trial ${trial}: ${JSON.stringify(loser.body)}`).toBe(409);
        const reason = loser.body?.error?.details?.receipts?.[0]?.reason ?? 'unknown';
        reasons[reason] = (reasons[reason] ?? 0) + 1;
      }
      expect(applied).toEqual([winner.answer.decisionId]);
      expect(executions).toBe(winner.answer.approve ? 1 : 0);
    }
    // which refusals the losers got (all must be 409): printed for the report
    console.log('late-denial loser reasons', reasons);
  }, 120_000);

  it('30 different answers at once through both instances: exactly one accepted, applied alone', async () => {
    for (let trial = 0; trial < 4; trial += 1) {
      const { runId, toolCallId } = await waitingRun();
      const answers: Answer[] = Array.from({ length: 30 }, (_, index) => ({
        decisionId: `many-${trial}-${index}`,
        approve: index % 2 === 0,
        via: index % 3 === 0 ? one : two,
        delayMs: index % 5,
      }));
      const { results, winners, executions, applied } = await settle(runId, toolCallId, answers);
      expect(winners).toHaveLength(1);
      expect(results.filter((result) => result.status !== 200).every((r) => r.status === 409)).toBe(true);
      expect(applied).toEqual([winners[0]!.answer.decisionId]);
      expect(executions).toBe(winners[0]!.answer.approve ? 1 : 0);
    }
  }, 120_000);
});
