import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpFixture, TOKENS, createHttpFixture, startRun } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture({ maxStreamsPerTenant: 3 });
});
afterAll(() => fx.close());

describe('stream cap per tenant', () => {
  it('refuses a stream beyond the cap with 429 too_many_streams and Retry-After, per tenant, until one closes', async () => {
    const waiting = await startRun(fx, { input: 'approve:1' });
    const path = `/v1/runs/${waiting.runId}/events?after=${waiting.ids.at(-1)}`;
    const open = await Promise.all([1, 2, 3].map(() => fx.call(path)));
    expect(open.map((response) => response.status)).toEqual([200, 200, 200]);

    const refused = await fx.call(path);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect((await refused.json()).error.code).toBe('too_many_streams');
    // a new streaming run is refused before it starts; one without a stream is not
    const start = await fx.json('/v1/runs', { body: { agentId: 'ops', input: 'plain' } });
    expect(start.status).toBe(429);
    const background = await fx.json('/v1/runs', { body: { agentId: 'ops', input: 'plain', stream: false } });
    expect(background.status).toBe(202);
    // other tenants have their own cap, and the capped tenant's other requests go on
    const other = await startRun(fx, { input: 'plain' }, TOKENS.globex);
    expect(other.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });
    expect((await fx.json(`/v1/runs/${waiting.runId}`)).status).toBe(200);

    // a client that goes away gives its slot back
    await open[0]?.body?.cancel();
    const again = await vi.waitFor(
      async () => {
        const response = await fx.call(path);
        if (response.status !== 200) await response.body?.cancel();
        expect(response.status).toBe(200);
        return response;
      },
      { timeout: 5_000, interval: 20 },
    );
    await Promise.all([again, ...open.slice(1)].map((response) => response.body?.cancel()));
  });

  it('a stream that ends gives its slot back', async () => {
    for (let index = 0; index < 5; index += 1) {
      const run = await startRun(fx, { input: 'plain' });
      expect(run.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });
    }
  });
});
