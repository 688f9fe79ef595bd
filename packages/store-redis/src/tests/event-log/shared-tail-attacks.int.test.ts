import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent } from '@awaken/contract';
import { type RedisServerHandle, startRedisServer } from '@awaken/testing';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisRunEventLog } from '../../redis-run-event-log';
import { crashRedis } from '../../../test-support/crash-redis';

/** Attacks on the one shared XREAD every waiting tail of a log uses. */
const delta = (runId: string, seq: number): AgentEvent => ({
  type: 'text_delta',
  runId,
  seq,
  at: Date.now(),
  messageId: 'm',
  delta: `d${seq}`,
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: RedisServerHandle | undefined;
const dirs: string[] = [];
const logs: RedisRunEventLog[] = [];
afterEach(async () => {
  for (const log of logs.splice(0)) await log.close().catch(() => undefined);
  await server?.stop();
  server = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Follows `runId` like an SSE reader: tail after the last seq seen until `upTo`, recording failures. */
async function follow(log: RedisRunEventLog, runId: string, upTo: number, errors: unknown[]) {
  const seen: number[] = [];
  let after = 0;
  const deadline = Date.now() + 40_000;
  while (after < upTo && Date.now() < deadline) {
    try {
      const events = await log.tail(runId, { afterSeq: after, waitMs: 1_000, limit: 64 });
      for (const event of events) {
        seen.push(event.seq);
        after = event.seq;
      }
    } catch (error) {
      errors.push(error);
      await sleep(100);
    }
  }
  return seen;
}

describe('shared XREAD reader under attack', () => {
  it('2,000 tails on runs whose streams do not exist yet: each is woken by its first append, fast', async () => {
    server = await startRedisServer();
    const log = new RedisRunEventLog({ redis: server.url, prefix: 'many' });
    logs.push(log);
    const runs = Array.from({ length: 2_000 }, (_, index) => `run-${index}`);
    const tails = runs.map((runId) => log.tail(runId, { afterSeq: 0, waitMs: 20_000 }));
    await sleep(300);
    // tails that join while the XREAD over 2,000 keys blocks, one by one
    const late = Array.from({ length: 50 }, (_, index) => `late-${index}`);
    const lateTails: Promise<AgentEvent[]>[] = [];
    for (const runId of late) {
      lateTails.push(log.tail(runId, { afterSeq: 0, waitMs: 20_000 }));
      await sleep(1);
    }
    const started = Date.now();
    await Promise.all([...runs, ...late].map((runId) => log.append(runId, [delta(runId, 1)])));
    const woken = await Promise.all([...tails, ...lateTails]);
    expect(woken.every((events) => events.length === 1 && events[0]?.seq === 1)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 60_000);

  it('a tail of a log that expires while tailed ends with [] (finish with a short TTL), and a later tail does not hang past waitMs', async () => {
    server = await startRedisServer();
    const log = new RedisRunEventLog({ redis: server.url, prefix: 'expire' });
    logs.push(log);
    await log.append('run-x', [delta('run-x', 1), delta('run-x', 2)]);
    const waiting = log.tail('run-x', { afterSeq: 2, waitMs: 10_000 });
    await sleep(50);
    await log.finish('run-x', { ttlMs: 50 });
    expect(await waiting).toEqual([]);
    await sleep(150);
    const started = Date.now();
    expect(await log.tail('run-x', { afterSeq: 2, waitMs: 300 })).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2_000);
    // a stream key deleted under a waiting tail (expiry without finish): the tail still ends on time
    await log.append('run-y', [delta('run-y', 1)]);
    const admin = new Redis(server.url);
    const keys = await admin.keys('expire*run-y*');
    const tail = log.tail('run-y', { afterSeq: 1, waitMs: 500 });
    await sleep(50);
    await admin.del(...keys);
    const tailStarted = Date.now();
    expect(await tail).toEqual([]);
    expect(Date.now() - tailStarted).toBeLessThan(2_000);
    admin.disconnect();
  });

  it('Redis killed and restarted while 50 tails wait: every tail resumes and gets every event once, in order, with no error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'awaken-tail-kill-'));
    dirs.push(dir);
    server = await startRedisServer({ dir, appendOnly: true, appendFsync: 'always' });
    const { port, url } = server;
    const writer = new RedisRunEventLog({ redis: url, prefix: 'kill' });
    const reader = new RedisRunEventLog({ redis: url, prefix: 'kill' });
    logs.push(writer, reader);
    const RUNS = 50;
    const EVENTS = 20;
    const runs = Array.from({ length: RUNS }, (_, index) => `run-${index}`);
    const errors: unknown[] = [];
    const followers = runs.map((runId) => follow(reader, runId, EVENTS, errors));
    await sleep(200);
    // the first half before the crash
    for (let seq = 1; seq <= EVENTS / 2; seq += 1)
      await Promise.all(runs.map((runId) => writer.append(runId, [delta(runId, seq)])));
    await sleep(200);
    await crashRedis(url);
    // longer than a tail's waitMs and the XREAD's block: tails time out and re-tail while it is down
    await sleep(3_000);
    server = await startRedisServer({ dir, port, appendOnly: true, appendFsync: 'always' });
    for (let seq = EVENTS / 2 + 1; seq <= EVENTS; seq += 1)
      await Promise.all(runs.map((runId) => writer.append(runId, [delta(runId, seq)])));
    const seen = await Promise.all(followers);
    const expected = Array.from({ length: EVENTS }, (_, index) => index + 1);
    expect(errors.map(String)).toEqual([]);
    for (const sequence of seen) expect(sequence).toEqual(expected);
  }, 60_000);
});
