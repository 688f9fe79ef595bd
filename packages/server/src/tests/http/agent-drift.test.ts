import type { AddressInfo } from 'node:net';
import { createMemoryStores } from '@awaken/store-memory';
import { serve } from '@hono/node-server';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createMailboxService } from '../../create-mailbox-service';
import { createHttpApp } from '../../http/create-http-app';
import type { MailboxService } from '../../types';
import { memoryCounters } from '../../../test-support/counters';
import { AGENT_ID, scenarioAgent } from '../../../test-support/scenario-agent';

const WAIT = { timeout: 10_000, interval: 20 };
const stores = createMemoryStores();
const counters = memoryCounters();
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** A service over the shared stores and its HTTP API on loopback: one "deploy". */
async function deploy(
  options: { systemPrompt?: string; onAgentChange?: 'continue' | 'refuse' } = {},
): Promise<{ url: string; service: MailboxService; stop(): Promise<void> }> {
  const agent = scenarioAgent(counters);
  const service = createMailboxService({
    agents: [options.systemPrompt ? { ...agent, systemPrompt: options.systemPrompt } : agent],
    stores,
    concurrency: 1,
    leaseMs: 2_000,
    idleWaitMs: 50,
    ...(options.onAgentChange ? { onAgentChange: options.onAgentChange } : {}),
  });
  await service.start();
  const { fetch } = createHttpApp({ tenants: { default: service } });
  const server = serve({ fetch, hostname: '127.0.0.1', port: 0 });
  if (!server.listening) await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await service.stop({ graceMs: 1_000 });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  closers.push(stop);
  return { url: `http://127.0.0.1:${port}`, service, stop };
}

async function call(url: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

async function waitingRun(url: string): Promise<{ runId: string; toolCallId: string }> {
  const started = await call(url, '/v1/runs', {
    agentId: AGENT_ID,
    input: `approve:1 #${Math.random()}`,
    stream: false,
  });
  expect(started.status).toBe(202);
  const { runId } = started.body;
  const run = await vi.waitFor(async () => {
    const view = await call(url, `/v1/runs/${runId}`);
    expect(view.body.status).toBe('waiting');
    return view.body;
  }, WAIT);
  return { runId, toolCallId: run.waiting.tickets[0].toolCallId };
}

describe('runs pinned to the agent that started them, through the server', () => {
  it('refuse: a decision for a run whose agent changed meanwhile is a 409 naming what changed; continue: it goes on; the run shows the drift', async () => {
    const before = await deploy();
    const { runId, toolCallId } = await waitingRun(before.url);
    const pinned = await call(before.url, `/v1/runs/${runId}`);
    expect(pinned.body.agentPin.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(pinned.body.agentDrift).toBeUndefined();
    await before.stop();

    // a deploy while it waits: new instructions, and this deployment refuses changed runs
    const strict = await deploy({ systemPrompt: 'You are the new ops agent.', onAgentChange: 'refuse' });
    const view = await call(strict.url, `/v1/runs/${runId}`);
    expect(view.body.agentDrift).toEqual({ changed: ['instructions'] });
    const decision = { toolCallId, decisionId: 'd-1', result: { approved: true } };
    const refused = await call(strict.url, `/v1/runs/${runId}/decision`, decision);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('conflict');
    expect(refused.body.error.message).toContain('instructions changed since it started');
    expect((await call(strict.url, `/v1/runs/${runId}`)).body.status).toBe('waiting');
    // an agent that did not change is never refused
    const fresh = await waitingRun(strict.url);
    const accepted = await call(strict.url, `/v1/runs/${fresh.runId}/decision`, {
      toolCallId: fresh.toolCallId,
      decisionId: 'd-fresh',
      result: { approved: true },
    });
    expect(accepted.status).toBe(200);
    await strict.stop();

    // the same new definition, with the default (continue): the run goes on and still shows the drift
    const lenient = await deploy({ systemPrompt: 'You are the new ops agent.' });
    const decided = await call(lenient.url, `/v1/runs/${runId}/decision`, decision);
    expect(decided.status).toBe(200);
    const done = await vi.waitFor(async () => {
      const run = await call(lenient.url, `/v1/runs/${runId}`);
      expect(run.body.status).toBe('done');
      return run.body;
    }, WAIT);
    expect(done.agentDrift).toEqual({ changed: ['instructions'] });
  });
});
