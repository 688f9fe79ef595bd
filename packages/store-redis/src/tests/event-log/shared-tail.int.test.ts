import type { AgentEvent } from '@awaken/contract';
import { type RedisServerHandle, startRedisServer } from '@awaken/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RedisRunEventLog } from '../../redis-run-event-log';

let server: RedisServerHandle;
let admin: Redis;
let log: RedisRunEventLog;

beforeAll(async () => {
  server = await startRedisServer();
  admin = new Redis(server.url);
  log = new RedisRunEventLog({ redis: server.url, prefix: 'shared-tail' });
});
afterAll(async () => {
  await log.close();
  admin.disconnect();
  await server.stop();
});

const delta = (runId: string, seq: number): AgentEvent => ({
  type: 'text_delta',
  runId,
  seq,
  at: Date.now(),
  messageId: 'm',
  delta: `d${seq}`,
});

/** Resolves once a blocked XREAD is on the server: the tails are registered and waiting. */
async function untilBlocked(): Promise<void> {
  await vi.waitFor(async () => expect(String(await admin.client('LIST'))).toContain('cmd=xread'), {
    timeout: 5_000,
    interval: 10,
  });
}

/** Connections the server has open, the test's own admin connection included. */
async function connections(): Promise<number> {
  return String(await admin.client('LIST'))
    .trim()
    .split('\n').length;
}

describe('waiting tails share one blocking connection', () => {
  it('200 tails on 200 runs hold 2 connections (commands + one XREAD), and an append wakes only its run', async () => {
    const idle = new AbortController();
    const runs = Array.from({ length: 200 }, (_, index) => `run-${index}`);
    const tails = runs.map((runId) =>
      log
        .tail(runId, { afterSeq: 0, waitMs: 20_000, signal: idle.signal })
        .then((events) => ({ runId, events })),
    );
    await untilBlocked();
    // the log's command connection, its one blocking connection, and this test's admin connection
    expect(await connections()).toBe(3);

    const started = Date.now();
    await log.append('run-7', [delta('run-7', 1)]);
    const woken = await tails[7];
    expect(woken?.events.map((event) => event.seq)).toEqual([1]);
    expect(Date.now() - started).toBeLessThan(1_000);

    // a tail that starts while the shared XREAD is blocked is covered at once, not after its timeout
    const late = log.tail('run-late', { afterSeq: 0, waitMs: 20_000 });
    await untilBlocked();
    const lateStarted = Date.now();
    await log.append('run-late', [delta('run-late', 1)]);
    expect((await late).map((event) => event.seq)).toEqual([1]);
    expect(Date.now() - lateStarted).toBeLessThan(1_000);

    idle.abort();
    const rest = await Promise.all(tails.filter((_, index) => index !== 7));
    expect(rest.every(({ events }) => events.length === 0)).toBe(true);
    expect(await connections()).toBe(3);
  });

  it('tails of one run after different seqs each get what follows their own seq', async () => {
    await log.append('run-seqs', [delta('run-seqs', 1), delta('run-seqs', 2)]);
    const atTwo = log.tail('run-seqs', { afterSeq: 2, waitMs: 5_000 });
    const atThree = log.tail('run-seqs', { afterSeq: 3, waitMs: 5_000 });
    await untilBlocked();
    await log.append('run-seqs', [delta('run-seqs', 3)]);
    expect((await atTwo).map((event) => event.seq)).toEqual([3]);
    await log.append('run-seqs', [delta('run-seqs', 4)]);
    expect((await atThree).map((event) => event.seq)).toEqual([4]);
  });

  it('a finish wakes its tails with [] and a timeout ends a tail with []', async () => {
    await log.append('run-end', [delta('run-end', 1)]);
    const waiting = log.tail('run-end', { afterSeq: 1, waitMs: 5_000 });
    await untilBlocked();
    await log.finish('run-end');
    expect(await waiting).toEqual([]);
    const started = Date.now();
    expect(await log.tail('run-quiet', { afterSeq: 0, waitMs: 150 })).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('survives the loss of the blocking connection: its tails are woken by the next append', async () => {
    const waiting = log.tail('run-lost', { afterSeq: 0, waitMs: 10_000 });
    await untilBlocked();
    const list = String(await admin.client('LIST'));
    const blocked = list.split('\n').find((line) => line.includes('cmd=xread'));
    const id = blocked?.match(/\bid=(\d+)/)?.[1];
    expect(id).toBeDefined();
    await admin.client('KILL', 'ID', String(id));
    await untilBlocked();
    await log.append('run-lost', [delta('run-lost', 1)]);
    expect((await waiting).map((event) => event.seq)).toEqual([1]);
  });

  it('close() ends the waiting tails with [] at once and drops the blocking connection', async () => {
    const own = new RedisRunEventLog({ redis: server.url, prefix: 'shared-tail-close' });
    const waiting = own.tail('run-closing', { afterSeq: 0, waitMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await own.close();
    expect(await waiting).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
