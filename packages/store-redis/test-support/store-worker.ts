/**
 * A separate Node process for the multi-process tests, started with `fork(..., { execArgv: ['--import',
 * 'tsx'] })`. Its mode comes from argv; it reports through `process.send` and exits.
 *   claim <url> <prefix> <workerId> <total> [workers]  once `workers` processes are ready (a barrier
 *                                            on `<prefix>test:ready`), claim and ack until
 *                                            `<prefix>test:acked` reaches total
 *   skew <url> <prefix> <dispatchId> <skewMs> claim one dispatch with Date.now skewed by skewMs
 *   append <url> <prefix> <runId> <count>     append `count` events in batches of 1-7
 *   cluster-claim <nodes> <base> <workerId> <trials:perTrial> [workers]
 *                                            on a Redis Cluster (`host:port,...`), for each trial t
 *                                            the sharded mailbox of prefix `<base>t<t>`: once
 *                                            `workers` processes are ready, claim and ack until
 *                                            `perTrial` are acked; reports each trial's claims
 */
import type { AgentEvent } from '@awaken/contract';
import { RedisMailboxStore } from '../src/redis-mailbox-store';
import { createRedisClusterClient } from '../src/internal/connection/cluster-client';
import { RedisRunEventLog } from '../src/redis-run-event-log';
import { ShardedRedisMailboxStore } from '../src/sharded-redis-mailbox-store';

const [mode, url = '', prefix = '', name = '', amount = '0', workers = '1'] = process.argv.slice(2);

async function claimLoop(): Promise<string[]> {
  const store = new RedisMailboxStore({ redis: url, prefix });
  const total = Number(amount);
  const claimed: string[] = [];
  try {
    // start together: a process forked late on a loaded machine would otherwise find nothing left
    await store.redis.incr(`${store.prefix}test:ready`);
    while (Number((await store.redis.get(`${store.prefix}test:ready`)) ?? 0) < Number(workers)) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    while (Number((await store.redis.get(`${store.prefix}test:acked`)) ?? 0) < total) {
      const batch = await store.claim({ workerId: name, limit: 10, leaseMs: 30_000 });
      if (batch.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      for (const dispatch of batch) {
        claimed.push(dispatch.dispatchId);
        await store.ack({ dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' });
        await store.redis.incr(`${store.prefix}test:acked`);
      }
    }
  } finally {
    await store.close();
  }
  return claimed;
}

/** Waits until `count` processes incremented `key` (a start line, so every trial is contended). */
async function barrier(
  redis: { incr(key: string): Promise<number>; get(key: string): Promise<string | null> },
  key: string,
  count: number,
) {
  await redis.incr(key);
  while (Number((await redis.get(key)) ?? 0) < count) await new Promise((resolve) => setTimeout(resolve, 2));
}

async function clusterClaimLoop(): Promise<{ dispatchId: string; claimToken: string }[][]> {
  const cluster = createRedisClusterClient(url, { log: () => undefined });
  const [trials, perTrial] = amount.split(':').map(Number) as [number, number];
  const results: { dispatchId: string; claimToken: string }[][] = [];
  try {
    for (let trial = 0; trial < trials; trial += 1) {
      const base = `${prefix}t${trial}`;
      const store = new ShardedRedisMailboxStore({ redis: cluster, prefix: base, shards: 3 });
      const acked = `${base}:test:acked`;
      const claimed: { dispatchId: string; claimToken: string }[] = [];
      try {
        await barrier(cluster, `${base}:test:ready`, Number(workers));
        while (Number((await cluster.get(acked)) ?? 0) < perTrial) {
          const batch = await store.claim({ workerId: name, limit: 10, leaseMs: 30_000 });
          if (batch.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
          for (const dispatch of batch) {
            const claimToken = dispatch.claimToken ?? '';
            claimed.push({ dispatchId: dispatch.dispatchId, claimToken });
            await store.ack({ dispatchId: dispatch.dispatchId, claimToken });
            await cluster.incr(acked);
          }
        }
      } finally {
        await store.close();
      }
      results.push(claimed);
    }
  } finally {
    cluster.disconnect();
  }
  return results;
}

async function skewedClaim(): Promise<unknown> {
  const realNow = Date.now.bind(Date);
  Date.now = () => realNow() + Number(amount);
  const store = new RedisMailboxStore({ redis: url, prefix });
  try {
    const claimed = await store.claimDispatch({ dispatchId: name, workerId: 'skewed', leaseMs: 60_000 });
    return { claimed, callerNow: Date.now() };
  } finally {
    await store.close();
  }
}

async function appendEvents(): Promise<number> {
  const log = new RedisRunEventLog({ redis: url, prefix });
  const count = Number(amount);
  let seq = 0;
  try {
    while (seq < count) {
      const size = Math.min(count - seq, 1 + Math.floor(Math.random() * 7));
      const events: AgentEvent[] = Array.from({ length: size }, () => {
        seq += 1;
        return { type: 'text_delta', runId: name, seq, at: Date.now(), messageId: 'm1', delta: `d${seq}` };
      });
      await log.append(name, events);
      if (seq % 50 < size) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await log.finish(name, { ttlMs: 60_000 });
  } finally {
    await log.close();
  }
  return seq;
}

async function main(): Promise<void> {
  const result =
    mode === 'claim'
      ? await claimLoop()
      : mode === 'cluster-claim'
        ? await clusterClaimLoop()
        : mode === 'skew'
          ? await skewedClaim()
          : await appendEvents();
  await new Promise<void>((resolve) => process.send?.({ result }, () => resolve()));
}

main().catch((error: unknown) => {
  process.send?.({ error: String(error instanceof Error ? error.stack : error) });
  process.exitCode = 1;
});
