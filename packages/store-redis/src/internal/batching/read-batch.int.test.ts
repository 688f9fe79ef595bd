import { AwakenError } from '@awaken/contract';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RedisThreadRunStore } from '../../redis-thread-run-store';

const prefix = `read-batch-${process.pid}:`;
let redis: Redis;
let store: RedisThreadRunStore;
let writes = 0;

beforeAll(async () => {
  redis = new Redis(inject('redisUrl'));
  await redis.ping();
  // every chunk the client writes to its socket: one per round trip it starts
  const stream = (redis as unknown as { stream: { write(...args: unknown[]): boolean } }).stream;
  const write = stream.write.bind(stream);
  stream.write = (...args: unknown[]) => {
    writes += 1;
    return write(...args);
  };
  store = new RedisThreadRunStore({ redis, prefix });
});
afterAll(() => redis.disconnect());

describe('RedisThreadRunStore: reads of one tick share one round trip', () => {
  it('answers reads started side by side from one pipeline, each with its own reply', async () => {
    const thread = await store.createThread({ id: 'side-by-side', metadata: { n: 1 } });
    await store.appendMessages(thread.id, {
      expectedLength: 0,
      messages: [{ message: { role: 'user', content: 'hi' }, visibility: 'external' }],
    });
    const before = writes;
    const [found, messages, state, count, run] = await Promise.all([
      store.getThread(thread.id),
      store.readMessages(thread.id),
      store.getThreadState(thread.id),
      store.messageCount(thread.id),
      store.getRun('no-such-run'),
    ]);
    expect(writes - before).toBe(1);
    expect(found?.metadata).toEqual({ n: 1 });
    expect(messages.map((record) => record.message)).toEqual([{ role: 'user', content: 'hi' }]);
    expect(state).toEqual({});
    expect(count).toBe(1);
    expect(run).toBeNull();
  });

  it('sends a read before a write started after it in the same tick', async () => {
    await store.createThread({ id: 'ordered', metadata: { v: 'old' } });
    const read = store.getThread('ordered');
    const write = store.updateThreadMetadata('ordered', { v: 'new' });
    expect((await read)?.metadata).toEqual({ v: 'old' });
    expect((await write).metadata).toEqual({ v: 'new' });
    expect((await store.getThread('ordered'))?.metadata).toEqual({ v: 'new' });
  });

  it('fails only the read whose command failed', async () => {
    await store.createThread({ id: 'one-fails' });
    await redis.set(`${prefix}run:not-a-hash`, 'x');
    const [broken, thread] = await Promise.allSettled([
      store.getRun('not-a-hash'),
      store.getThread('one-fails'),
    ]);
    expect(broken.status).toBe('rejected');
    expect(AwakenError.hasCode((broken as PromiseRejectedResult).reason, 'store_failure')).toBe(true);
    expect(thread.status === 'fulfilled' && thread.value?.id).toBe('one-fails');
  });
});
