import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RedisServerHandle, startRedisServer } from '@awaken/testing';
import { Redis } from 'ioredis';
import { Redis as Redis6 } from 'ioredis-6';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAILBOX_LUA } from './mailbox/mailbox-lua-sources';
import { RedisMailboxStore } from '../../redis-mailbox-store';

// Calls of one tick take effect in call order whatever the server has cached: EVALSHA of a script
// the server lacks (a fresh or restarted server, SCRIPT FLUSH) must not let a later call whose
// script is cached run first. Each test has its own redis-server, so it controls the script cache.

/** The outcome of each call: its status, or its error code. */
const outcomes = async (calls: Promise<{ status: string }>[]) =>
  (await Promise.allSettled(calls)).map((result) =>
    result.status === 'fulfilled' ? result.value.status : (result.reason as { code: string }).code,
  );

/** Two dispatches claimed; the second acked, so the ack script has run (and is cached). */
async function twoClaimed(store: RedisMailboxStore) {
  await store.enqueue({ threadId: 't1', runId: 'r1', dispatchId: 'd1' });
  await store.enqueue({ threadId: 't2', runId: 'r2', dispatchId: 'd2' });
  const claimed = await store.claim({ workerId: 'w', limit: 2, leaseMs: 60_000 });
  const [first, second] = claimed.map((dispatch) => ({
    dispatchId: dispatch.dispatchId,
    claimToken: dispatch.claimToken ?? '',
  }));
  if (!first || !second) throw new Error('not claimed');
  await store.ack(second);
  return first;
}

describe('calls of one tick on a server that has not cached every script', () => {
  let dir: string;
  let server: RedisServerHandle;
  let admin: Redis;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'awaken-noscript-'));
    server = await startRedisServer({ dir, appendOnly: true, appendFsync: 'always' });
    admin = new Redis(server.url);
  });
  afterEach(async () => {
    admin.disconnect();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a nack (script not cached yet) then an ack of the same claim: the nack wins', async () => {
    const store = new RedisMailboxStore({ redis: server.url, prefix: 'order' });
    try {
      // A fresh server: only what this store ran is cached, not the nack script.
      const first = await twoClaimed(store);
      expect(await outcomes([store.nack({ ...first, error: 'x' }), store.ack(first)])).toEqual([
        'queued',
        'stale_claim',
      ]);
    } finally {
      await store.close();
    }
  });

  it('the same with an application-owned ioredis 6 client', async () => {
    const client = new Redis6(server.url);
    const store = new RedisMailboxStore({ redis: client as never, prefix: 'order6' });
    try {
      const first = await twoClaimed(store);
      expect(await outcomes([store.nack({ ...first, error: 'x' }), store.ack(first)])).toEqual([
        'queued',
        'stale_claim',
      ]);
    } finally {
      await store.close();
      client.disconnect();
    }
  });

  it('after a restart on which another process loaded only the ack script: the nack wins', async () => {
    const store = new RedisMailboxStore({ redis: server.url, prefix: 'restart' });
    store.redis.on('error', () => undefined); // the restart's connection errors are expected
    try {
      const first = await twoClaimed(store);
      admin.disconnect();
      await server.stop({ keepDir: true });
      server = await startRedisServer({ dir, port: server.port, appendOnly: true, appendFsync: 'always' });
      admin = new Redis(server.url);
      await admin.script('LOAD', MAILBOX_LUA.ack.source);
      await store.redis.ping(); // reconnected; this connection has written no script yet
      expect(await outcomes([store.nack({ ...first, error: 'x' }), store.ack(first)])).toEqual([
        'queued',
        'stale_claim',
      ]);
    } finally {
      await store.close();
    }
  });

  it('after SCRIPT FLUSH under a live connection: a nack (run before) then an ack (never run): the nack wins', async () => {
    const store = new RedisMailboxStore({ redis: server.url, prefix: 'flush' });
    try {
      await store.enqueue({ threadId: 't1', runId: 'r1', dispatchId: 'd1' });
      await store.enqueue({ threadId: 't2', runId: 'r2', dispatchId: 'd2' });
      const claimed = await store.claim({ workerId: 'w', limit: 2, leaseMs: 60_000 });
      const [first, second] = claimed.map((dispatch) => ({
        dispatchId: dispatch.dispatchId,
        claimToken: dispatch.claimToken ?? '',
      }));
      if (!first || !second) throw new Error('not claimed');
      await store.nack({ ...second, error: 'x' }); // the ack script never ran on this connection
      await admin.script('FLUSH');
      expect(await outcomes([store.nack({ ...first, error: 'x' }), store.ack(first)])).toEqual([
        'queued',
        'stale_claim',
      ]);
      // Both were answered NOSCRIPT and sent again; the connection has loaded every script since.
      await store.redis.ping();
      const shas = Object.values(MAILBOX_LUA).map((script) => script.sha);
      expect(await admin.script('EXISTS', ...shas)).toEqual(shas.map(() => 1));
    } finally {
      await store.close();
    }
  });
});
