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
    registry,
  });
});
afterAll(() => service.stop({ graceMs: 2_000 }));

async function call(path: string, body?: unknown) {
  const response = await http.app.request(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text() };
}

describe('a waiting run cancelled while nobody executes it', () => {
  it('is measured as a cancelled wait, from the stored question to the cancel', async () => {
    const started = await call('/v1/runs', { agentId: AGENT_ID, input: 'approve:1 #cancel', stream: false });
    expect(started.status, started.text).toBe(202);
    const { runId } = JSON.parse(started.text);
    await vi.waitFor(
      async () => expect(JSON.parse((await call(`/v1/runs/${runId}`)).text).status).toBe('waiting'),
      WAIT,
    );
    const log = await service.stores.eventLog.read(runId);
    const asked = log.find((event) => event.type === 'tool_call_suspended');
    expect(asked).toBeDefined();

    const cancelled = await call(`/v1/runs/${runId}/cancel`, {});
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(JSON.parse(cancelled.text)).toMatchObject({ status: 'done', termination: { type: 'cancelled' } });
    await vi.waitFor(() => expect(waits.filter((wait) => wait.runId === runId)).toHaveLength(1), WAIT);
    const [wait] = waits.filter((entry) => entry.runId === runId);
    const end = (await service.stores.eventLog.read(runId)).find(
      (event) => event.type === 'tool_call_done' && event.status === 'cancelled',
    );
    expect(wait).toMatchObject({
      outcome: 'cancelled',
      channel: 'runtime',
      tool: 'approve_me',
      askedAt: asked!.at,
      answeredAt: end!.at,
    });
  });
});
