import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryCounters } from '../../../test-support/counters';
import { AGENT_ID, scenarioAgent } from '../../../test-support/scenario-agent';
import { createMailboxService } from '../../create-mailbox-service';
import { type HttpApp, createHttpApp } from '../../http/create-http-app';
import type { MailboxService } from '../../types';
import { type MeasuredWait, createApprovalWaitMeter } from '../../waits/approval-wait-meter';

const TOKEN = 'acme-token-0123456789abcdef';
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const WAIT = { timeout: 10_000, interval: 20 };

let service: MailboxService;
let http: HttpApp;
const waits: MeasuredWait[] = [];

beforeAll(async () => {
  const registry = new Registry();
  const meter = createApprovalWaitMeter({ registry, api: null, onWait: (wait) => waits.push(wait) });
  service = createMailboxService({
    agents: [scenarioAgent(memoryCounters())],
    concurrency: 2,
    leaseMs: 2_000,
    idleWaitMs: 100,
    observeEvents: meter.observe,
  });
  await service.start();
  http = createHttpApp({
    tenants: { acme: service },
    tokens: [{ token: TOKEN, tenant: 'acme', subject: 'alice' }],
    logger: pino({ level: 'silent' }),
    metricsToken: METRICS_TOKEN,
    registry,
    keepAliveMs: 200,
  });
});
afterAll(() => service.stop({ graceMs: 2_000 }));

async function call(path: string, body?: unknown, token = TOKEN) {
  const response = await http.app.request(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text() };
}

async function waitingRun(input: string): Promise<{ runId: string; ticketId: string }> {
  const started = await call('/v1/runs', { agentId: AGENT_ID, input, stream: false });
  expect(started.status, started.text).toBe(202);
  const { runId } = JSON.parse(started.text);
  const ticketId = await vi.waitFor(async () => {
    const run = JSON.parse((await call(`/v1/runs/${runId}`)).text);
    expect(run.status).toBe('waiting');
    return run.waiting.tickets[0].ticketId as string;
  }, WAIT);
  return { runId, ticketId };
}

const metrics = async () => (await call('/metrics', undefined, METRICS_TOKEN)).text;

describe('measured waits, through the service and /metrics', () => {
  it('counts an approve, a deny and an expiry by outcome, tool and channel, and the open questions per tenant', async () => {
    const approve = await waitingRun('approve:1 #approve');
    const deny = await waitingRun('approve:1 #deny');
    expect(await metrics()).toContain('awaken_open_questions{tenant="acme"} 2');

    const decide = (run: { runId: string; ticketId: string }, approved: boolean, decisionId: string) =>
      call(`/v1/runs/${run.runId}/decision`, { ticketId: run.ticketId, decisionId, result: { approved } });
    expect((await decide(approve, true, 'yes')).status).toBeLessThan(300);
    expect((await decide(deny, false, 'no')).status).toBeLessThan(300);
    // nobody answers this one: it expires 100 ms after it is asked
    await waitingRun('expire:100 #expire');

    await vi.waitFor(() => expect(waits).toHaveLength(3), WAIT);
    expect(waits.map((wait) => [wait.outcome, wait.tool, wait.channel]).sort()).toEqual([
      ['approved', 'approve_me', 'api'],
      ['denied', 'approve_me', 'api'],
      ['expired', 'approve_me', 'runtime'],
    ]);
    const text = await metrics();
    for (const [outcome, channel] of [
      ['approved', 'api'],
      ['denied', 'api'],
      ['expired', 'runtime'],
    ]) {
      expect(text).toContain(
        `awaken_approval_wait_seconds_count{outcome="${outcome}",tool="approve_me",channel="${channel}"} 1`,
      );
    }
    // the expiry waited its 100 ms (from the ask to expiresAt, not to when the expiry was noticed),
    // less the instant between the runtime reading its clock for expiresAt and stamping the event
    const expired = waits.find((wait) => wait.outcome === 'expired')!;
    expect(expired.answeredAt - expired.askedAt).toBeGreaterThanOrEqual(95);
    expect(expired.answeredAt - expired.askedAt).toBeLessThanOrEqual(100);
    expect(text).toContain(
      'awaken_approval_wait_seconds_bucket{le="1",outcome="expired",tool="approve_me",channel="runtime"} 1',
    );
    expect(text).toContain('awaken_open_questions{tenant="acme"} 0');
  });
});
