import { AwakenError, type AwakenErrorCode } from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, TOKENS, createHttpFixture } from '../../../test-support/http-fixture';
import { httpStatusOf } from '../../http/error-table';
import { matchToken } from '../../http/middleware/authenticate';
import type { ServiceStores } from '../../types';

/** Memory stores whose thread store fails with `failure` while it is set. */
function breakableStores(): { stores: ServiceStores; fail(error: Error | undefined): void } {
  const memory = createMemoryStores();
  let failure: Error | undefined;
  const threadRuns = new Proxy(memory.threadRuns, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (failure) return Promise.reject(failure);
        return value.apply(target, args);
      };
    },
  });
  return {
    stores: {
      threadRuns,
      mailbox: memory.mailbox,
      eventLog: memory.eventLog,
      inbox: memory.inbox,
    },
    fail(error) {
      failure = error;
    },
  };
}

let fx: HttpFixture;
const broken = breakableStores();
beforeAll(async () => {
  fx = await createHttpFixture({
    bodyLimitBytes: 4096,
    corsOrigins: ['https://app.example'],
    stores: { globex: broken.stores },
  });
});
afterAll(() => fx.close());
// a failed assertion must not leave the store broken for the tests after it
afterEach(() => broken.fail(undefined));

describe('errors', () => {
  it('malformed JSON is 400, a body that is not JSON 415, a body over the limit 413, an unknown route 404', async () => {
    const malformed = await fx.json('/v1/threads', { raw: '{"id": ' });
    expect(malformed).toEqual({
      status: 400,
      body: { error: { code: 'malformed_json', message: 'the request body is not valid JSON' } },
    });
    const text = await fx.json('/v1/threads', { raw: 'id=1', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe('unsupported_media_type');
    const huge = await fx.json('/v1/threads', { body: { metadata: { blob: 'x'.repeat(10_000) } } });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('payload_too_large');
    const declared = 'x'.repeat(5000);
    const byHeader = await fx.json('/v1/threads', {
      raw: declared,
      headers: { 'content-type': 'application/json', 'content-length': String(declared.length) },
    });
    expect(byHeader.status).toBe(413);
    const route = await fx.json('/v1/nothing-here');
    expect(route.status).toBe(404);
    expect(route.body.error.code).toBe('route_not_found');
  });

  it('a failing store is 503 (store_failure) or 500, without its message or stack, never a 4xx', async () => {
    broken.fail(new AwakenError('store_failure', 'connect ECONNREFUSED 10.1.2.3:6379', { retryable: true }));
    const down = await fx.json('/v1/threads', { token: TOKENS.globex });
    expect(down).toEqual({
      status: 503,
      body: { error: { code: 'store_failure', message: 'a store is unavailable; retry later' } },
    });
    broken.fail(new TypeError('secret internals at /srv/app.js:12'));
    const bug = await fx.call('/v1/threads', { token: TOKENS.globex });
    const text = await bug.text();
    expect(bug.status).toBe(500);
    expect(JSON.parse(text)).toEqual({ error: { code: 'internal', message: 'internal server error' } });
    expect(text).not.toContain('secret');
    expect(text).not.toContain('at ');
    const health = await fx.json('/health');
    expect(health.status).toBe(503);
    expect(health.body.stores.threadRuns).toBe('unavailable');
    broken.fail(undefined);
    expect((await fx.json('/health')).status).toBe(200);
  });

  it('maps every AwakenError code in one table; only server-side failures are 5xx', () => {
    const clientCodes: AwakenErrorCode[] = [
      'validation_failed',
      'not_found',
      'conflict',
      'dedupe_conflict',
      'unauthorized',
    ];
    for (const code of clientCodes) expect(httpStatusOf(code)).toBeLessThan(500);
    expect(httpStatusOf('validation_failed')).toBe(422);
    expect(httpStatusOf('not_found')).toBe(404);
    expect(httpStatusOf('conflict')).toBe(409);
    expect(httpStatusOf('store_failure')).toBe(503);
  });
});

describe('auth', () => {
  it('no token or a wrong one is 401 with a Bearer challenge; the scheme is case-insensitive', async () => {
    const none = await fx.call('/v1/threads', { token: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await none.json()).error.code).toBe('unauthorized');
    expect((await fx.call('/v1/threads', { token: `${TOKENS.acme}x` })).status).toBe(401);
    expect(
      (await fx.call('/v1/threads', { token: null, headers: { authorization: TOKENS.acme } })).status,
    ).toBe(401);
    const lower = await fx.call('/v1/threads', {
      token: null,
      headers: { authorization: `bearer ${TOKENS.acme}` },
    });
    expect(lower.status).toBe(200);
  });

  it('matches a token against every configured one', () => {
    const tokens = [
      { token: 'a'.repeat(20), tenant: 'a' },
      { token: 'b'.repeat(20), tenant: 'b' },
    ];
    expect(matchToken(tokens, 'b'.repeat(20))?.tenant).toBe('b');
    expect(matchToken(tokens, 'b'.repeat(19))).toBeUndefined();
    expect(matchToken(tokens, '')).toBeUndefined();
  });

  it("/metrics needs the metrics token (401 without it, and with a tenant's): it names every tenant", async () => {
    for (const token of [null, TOKENS.acme, 'wrong-token-0123456789abcdef']) {
      const refused = await fx.json('/metrics', { token });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('unauthorized');
    }
    const scraped = await fx.call('/metrics', { token: TOKENS.metrics });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('tenant="globex"');
  });

  it('operations routes are open: /health/live, /openapi.json, /reference; /metrics with its token', async () => {
    expect(await (await fx.call('/health/live', { token: null })).json()).toEqual({ status: 'ok' });
    const metrics = await (await fx.call('/metrics', { token: TOKENS.metrics })).text();
    for (const name of [
      'awaken_http_request_duration_seconds',
      'awaken_runs',
      'awaken_dispatches',
      'awaken_waiting_runs',
      'awaken_queue_oldest_age_seconds',
      'awaken_event_log_lag_seconds',
    ]) {
      expect(metrics).toContain(name);
    }
    const reference = await fx.call('/reference', { token: null });
    expect(reference.status).toBe(200);
    expect(reference.headers.get('content-type')).toContain('text/html');
  });

  it('documents every route in /openapi.json, with the bearer scheme', async () => {
    const document = await (await fx.call('/openapi.json', { token: null })).json();
    const paths = Object.keys(document.paths);
    for (const path of [
      '/v1/threads',
      '/v1/threads/{threadId}',
      '/v1/threads/{threadId}/messages',
      '/v1/threads/{threadId}/runs',
      '/v1/threads/{threadId}/active-run',
      '/v1/threads/{threadId}/decision',
      '/v1/threads/{threadId}/decisions',
      '/v1/threads/{threadId}/interrupt',
      '/v1/threads/{threadId}/inject',
      '/v1/threads/{threadId}/dispatches',
      '/v1/runs',
      '/v1/runs/{runId}',
      '/v1/runs/{runId}/events',
      '/v1/runs/{runId}/decision',
      '/v1/runs/{runId}/decisions',
      '/v1/runs/{runId}/recording',
      '/v1/runs/{runId}/cancel',
      '/v1/mailbox/submit',
      '/v1/mailbox/dispatches/{dispatchId}',
      '/v1/mailbox/dead-letters',
      '/v1/mailbox/dead-letters/{dispatchId}/requeue',
      '/v1/mailbox/purge',
      '/health',
      '/health/live',
      '/metrics',
    ]) {
      expect(paths).toContain(path);
    }
    expect(document.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
  });

  it('answers CORS preflights for configured origins only, exposing the run and thread id headers', async () => {
    const preflight = await fx.call('/v1/runs', {
      method: 'OPTIONS',
      token: null,
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const actual = await fx.call('/v1/threads', { headers: { origin: 'https://app.example' } });
    expect(actual.headers.get('access-control-expose-headers')).toContain('x-run-id');
    const other = await fx.call('/v1/threads', { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('echoes a well-formed x-request-id and makes one up otherwise', async () => {
    const given = await fx.call('/v1/threads', { headers: { 'x-request-id': 'req-123' } });
    expect(given.headers.get('x-request-id')).toBe('req-123');
    const made = await fx.call('/v1/threads', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
