import { type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type HttpFixture, TOKENS, createHttpFixture, startRun } from '../../../test-support/http-fixture';

/** Attacks on the per-tenant stream cap: every way a stream can end must give its slot back. */
const CAP = 3;
let fx: HttpFixture;
let server: ServerType;
let port: number;

// a fresh app per attack, so one leak does not hide or cause another
beforeEach(async () => {
  fx = await createHttpFixture({ maxStreamsPerTenant: CAP, keepAliveMs: 50 });
  server = serve({ fetch: fx.http.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  port = (server.address() as AddressInfo).port;
});
afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  await fx.close();
});

const settle = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens a stream over a real socket; resolves with the response once its first bytes arrived. */
function openOverSocket(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ response: IncomingMessage; abort: () => void }>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${TOKENS.acme}`, ...headers } },
      (response) => {
        if (response.statusCode !== 200) return resolve({ response, abort: () => req.destroy() });
        response.once('data', () => resolve({ response, abort: () => req.destroy() }));
      },
    );
    req.once('error', reject);
    req.end();
  });
}

/** Every slot of acme is free again: CAP streams open at once, then all are cancelled. */
async function expectAllSlotsFree(path: string) {
  const open = await Promise.all(Array.from({ length: CAP }, () => fx.call(path)));
  expect(open.map((response) => response.status)).toEqual(Array(CAP).fill(200));
  await Promise.all(open.map((response) => response.body?.cancel()));
  await settle();
}

describe('stream cap: slots never leak', () => {
  it('a HEAD request on an event stream gives its slot back', async () => {
    const waiting = await startRun(fx, { input: 'approve:1' });
    const path = `/v1/runs/${waiting.runId}/events?after=${waiting.ids.at(-1)}`;
    for (let index = 0; index < CAP + 2; index += 1) {
      const head = await fx.call(path, { method: 'HEAD' });
      expect(head.status).toBeLessThan(500);
    }
    await settle();
    await expectAllSlotsFree(path);
  });

  it('200 clients that abort mid-stream over a real socket leave every slot free', async () => {
    const waiting = await startRun(fx, { input: 'approve:1' });
    const path = `/v1/runs/${waiting.runId}/events?after=${waiting.ids.at(-1)}`;
    for (let index = 0; index < 200; index += 1) {
      const { response, abort } = await openOverSocket(path);
      expect(response.statusCode).toBe(200);
      abort();
    }
    await settle(200);
    await expectAllSlotsFree(path);
  }, 60_000);

  it('a Last-Event-ID reconnect storm is capped, answered 429 beyond it, and leaves every slot free', async () => {
    const waiting = await startRun(fx, { input: 'approve:1' });
    const path = `/v1/runs/${waiting.runId}/events`;
    const storm = await Promise.all(
      Array.from({ length: 50 }, () =>
        fx.call(path, { headers: { 'last-event-id': String(waiting.ids.at(-1)) } }),
      ),
    );
    const statuses = storm.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(CAP);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50 - CAP);
    await Promise.all(storm.map((response) => response.body?.cancel()));
    await settle();
    // invalid cursors and unknown runs take a slot only while they are refused
    for (const bad of ['abc', '-1', '1e400', '9'.repeat(400)]) {
      const response = await fx.call(path, { headers: { 'last-event-id': bad } });
      expect(response.status).toBeLessThan(500);
      await response.body?.cancel();
    }
    for (let index = 0; index < CAP + 2; index += 1) {
      expect((await fx.call('/v1/runs/run_unknown/events')).status).toBe(404);
    }
    await settle();
    await expectAllSlotsFree(`${path}?after=${waiting.ids.at(-1)}`);
  });

  it('streaming submits that are refused (4xx) or abort at once leave every slot free', async () => {
    for (let index = 0; index < CAP + 2; index += 1) {
      const bad = await fx.json('/v1/runs', { body: { agentId: 'nope', input: 'plain' } });
      expect(bad.status).toBeGreaterThanOrEqual(400);
      expect(bad.status).toBeLessThan(500);
    }
    for (let index = 0; index < CAP + 2; index += 1) {
      const response = await fx.call('/v1/runs', { body: { agentId: 'ops', input: 'slow:100' } });
      expect(response.status).toBe(200);
      await response.body?.cancel();
    }
    await settle(300);
    const waiting = await startRun(fx, { input: 'approve:1' });
    await expectAllSlotsFree(`/v1/runs/${waiting.runId}/events?after=${waiting.ids.at(-1)}`);
  });
});
