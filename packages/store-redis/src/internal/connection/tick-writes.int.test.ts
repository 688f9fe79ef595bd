import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { holdWritesForTick } from './tick-writes';

// The tick's joined writes on a real ioredis client and a real Redis: every reply goes to its own
// command whatever else the tick writes, and nothing is lost or left unsent around the tick.
const url = new URL(inject('redisUrl'));
url.pathname = '/6';
const clients: Redis[] = [];
afterAll(() => {
  for (const redis of clients) redis.disconnect();
});

/** A connected client whose `error` events are recorded. */
async function connected(): Promise<{ redis: Redis; errors: string[] }> {
  const redis = new Redis(url.toString());
  clients.push(redis);
  const errors: string[] = [];
  redis.on('error', (error: Error) => errors.push(error.message));
  await redis.ping();
  return { redis, errors };
}

describe('holdWritesForTick on a real client', () => {
  it('matches every reply to its command: Buffers, callbacks, a pipeline, an error and pub/sub in one tick', async () => {
    const { redis } = await connected();
    const key = `tick-writes:${process.pid}:${Date.now()}`;
    holdWritesForTick(redis);
    const replies: Promise<unknown>[] = [];
    const viaCallback = new Promise((resolve) => redis.echo('callback', (_error, value) => resolve(value)));
    replies.push(redis.echo('first'));
    replies.push(redis.set(key, Buffer.from([0xff, 0x00, 0x7b])));
    replies.push(
      redis.eval("return redis.error_reply('ERR boom')", 0).catch((error: Error) => error.message),
    );
    replies.push(redis.getBuffer(key));
    replies.push(redis.pipeline().echo('p1').echo('p2').exec());
    replies.push(redis.publish(`${key}:channel`, 'hello'));
    replies.push(redis.echo('x'.repeat(3_000_000)).then((value) => (value as string).length));
    replies.push(redis.echo('ünïcödé \u{1F600} "__proto__"'));
    replies.push(redis.del(key));
    expect(await Promise.all([viaCallback, ...replies])).toEqual([
      'callback',
      'first',
      'OK',
      'ERR boom',
      Buffer.from([0xff, 0x00, 0x7b]),
      [
        [null, 'p1'],
        [null, 'p2'],
      ],
      0,
      3_000_000,
      'ünïcödé \u{1F600} "__proto__"',
      1,
    ]);
  });

  it('sends the commands of the tick before a disconnect in the same tick, as without the hold', async () => {
    const { redis, errors } = await connected();
    holdWritesForTick(redis);
    const reply = redis.echo('sent before the disconnect');
    redis.disconnect();
    await expect(reply).resolves.toBe('sent before the disconnect');
    expect(errors).toEqual([]);
  });

  it('leaves the socket working when another copy of the module holds it in the same tick', async () => {
    const { redis } = await connected();
    vi.resetModules();
    const other = await import('./tick-writes');
    expect(other.holdWritesForTick).not.toBe(holdWritesForTick);
    holdWritesForTick(redis);
    const first = redis.echo('a');
    other.holdWritesForTick(redis);
    const second = redis.echo('b');
    expect(await Promise.all([first, second])).toEqual(['a', 'b']);
    // and in the ticks after it
    other.holdWritesForTick(redis);
    holdWritesForTick(redis);
    const third = redis.echo('c');
    expect(await third).toBe('c');
    expect(await redis.echo('d')).toBe('d');
  });
});
