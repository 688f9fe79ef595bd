import type { AgentEvent } from '@awaken/contract';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { RedisRunEventLog } from '../../redis-run-event-log';
import { forkWorker } from '../../../test-support/fork-worker';
import { deleteKeys, uniquePrefix } from '../../../test-support/redis-harness';

/** Tails `runId` from `afterSeq` until `lastSeq` arrives, collecting every event returned. */
async function tailUntil(log: RedisRunEventLog, runId: string, afterSeq: number, lastSeq: number) {
  const seen: AgentEvent[] = [];
  let cursor = afterSeq;
  while (cursor < lastSeq) {
    const events = await log.tail(runId, { afterSeq: cursor, waitMs: 2_000, limit: 13 });
    seen.push(...events);
    cursor = events.at(-1)?.seq ?? cursor;
  }
  return seen;
}

describe('RedisRunEventLog across processes', () => {
  const url = inject('redisUrl');
  let log: RedisRunEventLog | undefined;

  afterEach(async () => {
    if (log) {
      await deleteKeys(log.redis, log.prefix);
      await log.close();
    }
  });

  it('lets readers in this process see every event once, in order, from any seq while another process appends', async () => {
    log = new RedisRunEventLog({ redis: url, prefix: uniquePrefix('events') });
    const total = 600;
    const writer = forkWorker<number>(['append', url, log.prefix, 'run-1', String(total)]);
    const starts = [0, 1, 137, 420];
    const readers = starts.map((afterSeq) => tailUntil(log!, 'run-1', afterSeq, total));
    const [written, ...results] = await Promise.all([writer, ...readers]);
    expect(written).toBe(total);
    results.forEach((events, index) => {
      const afterSeq = starts[index] ?? 0;
      expect(events.map((event) => event.seq)).toEqual(
        Array.from({ length: total - afterSeq }, (_, offset) => afterSeq + offset + 1),
      );
      expect(events.every((event) => event.runId === 'run-1' && event.type === 'text_delta')).toBe(true);
    });
    expect(await log.isFinished('run-1')).toBe(true);
    expect(await log.redis.pttl(`${log.prefix}ev:run-1`)).toBeGreaterThan(0);
  }, 60_000);
});
