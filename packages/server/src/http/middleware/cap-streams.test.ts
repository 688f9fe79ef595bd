import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { Caller, HttpEnv } from '../http-types';
import { sseResponse } from '../sse/sse-response';
import { StreamSlots } from '../sse/stream-slots';
import { capStreams, countEveryStream } from './cap-streams';

/** A stream that never ends on its own, telling when it was cancelled. */
function endless(cancelled: string[], name: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(': hello\n\n'));
    },
    cancel() {
      cancelled.push(name);
    },
  });
}

function app(slots: StreamSlots, cancelled: string[]) {
  const app = new Hono<HttpEnv>();
  app.use('*', async (c, next) => {
    c.set('caller', { tenant: c.req.header('x-tenant') ?? 'acme' } as Caller);
    await next();
  });
  app.use('/v1/*', countEveryStream(slots));
  app.use('/v1/listed', capStreams(slots));
  // a route no capStreams names: the net counts its stream when it is answered
  app.get('/v1/unlisted', (c) => sseResponse(endless(cancelled, c.req.query('n') ?? '')));
  app.get('/v1/listed', (c) => sseResponse(endless(cancelled, c.req.query('n') ?? '')));
  app.get('/v1/plain', (c) => c.json({ ok: true }));
  return app;
}

describe('countEveryStream', () => {
  it('counts a stream no capStreams counted: 429 past the cap (its body cancelled), the slot back when it ends', async () => {
    const slots = new StreamSlots(2);
    const cancelled: string[] = [];
    const server = app(slots, cancelled);
    const first = await server.request('/v1/unlisted?n=1');
    const second = await server.request('/v1/listed?n=2');
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(slots.open('acme')).toBe(2);

    const refused = await server.request('/v1/unlisted?n=3');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.headers.get('content-type')).toContain('application/json');
    expect((await refused.json()).error.code).toBe('too_many_streams');
    expect(cancelled).toEqual(['3']);
    // a stream counted by capStreams is not counted twice; what is not a stream is never counted
    expect((await server.request('/v1/listed?n=4')).status).toBe(429);
    expect((await server.request('/v1/plain')).status).toBe(200);
    expect((await server.request('/v1/unlisted?n=5', { headers: { 'x-tenant': 'globex' } })).status).toBe(
      200,
    );

    await first.body?.cancel();
    expect(cancelled).toContain('1');
    expect(slots.open('acme')).toBe(1);
    const again = await server.request('/v1/unlisted?n=6');
    expect(again.status).toBe(200);
    expect(slots.open('acme')).toBe(2);
  });
});
