import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { type AppProcess, readSse, startAppProcess } from '../../../test-support/app-process';

let a: AppProcess;
let b: AppProcess;
beforeAll(async () => {
  const env = {
    REDIS_URL: inject('redisUrl'),
    AWAKEN_REDIS_PREFIX: `race-${randomUUID().slice(0, 8)}`,
    AWAKEN_LEASE_MS: '3000',
  };
  [a, b] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

async function decide(app: AppProcess, runId: string, ticketId: string) {
  const response = await fetch(`${app.url}/v1/runs/${runId}/decision`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ticketId, result: { approved: true } }),
  });
  return response.json();
}

it('a decision sent right after a continuation suspends again (before its dispatch is acked) is applied, on alternating processes', async () => {
  let hung = 0;
  for (let round = 0; round < 30; round++) {
    const start = await fetch(`${a.url}/v1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agentId: 'demo', input: 'delete /tmp/x and /tmp/y' }),
    });
    const runId = start.headers.get('x-run-id')!;
    const first = await readSse(start);
    const tickets = first.events
      .filter((e) => e.type === 'tool_call_suspended')
      .map((e) => e.ticket.suspension.id);
    const lastSeq = first.ids.at(-1)!;
    await decide(b, runId, tickets[0]);
    const second = await readSse(await fetch(`${b.url}/v1/runs/${runId}/events?after=${lastSeq}`));
    await decide(a, runId, tickets[1]);
    const controller = new AbortController();
    // a deadline for a hung run (the bug this guards against), generous so a loaded machine is not a hang
    const timer = setTimeout(() => controller.abort(), 15_000);
    try {
      const third = await readSse(
        await fetch(`${a.url}/v1/runs/${runId}/events?after=${second.ids.at(-1)}`, {
          signal: controller.signal,
        }),
      );
      if (third.events.at(-1)?.status !== 'done') hung++;
    } catch {
      hung++;
    }
    clearTimeout(timer);
  }
  expect(hung).toBe(0);
}, 120_000);
