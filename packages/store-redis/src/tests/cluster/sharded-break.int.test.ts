import { AwakenError, type RunRecord } from '@awaken/contract';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { threadShard } from '../../internal/cluster/cluster-topology';
import { ShardedRedisThreadRunStore } from '../../sharded-redis-thread-run-store';
import { clusterClient, deleteClusterKeys } from '../../../test-support/redis-cluster-harness';
import { uniquePrefix } from '../../../test-support/redis-harness';

// Attacks on the sharded thread/run store (issue 36, break pass): run ids reused across threads of
// different shards from two processes, odd ids.
const nodes = inject('redisClusterNodes');
const client = clusterClient(nodes);
afterAll(async () => {
  await client.quit();
});

/** Two thread ids on different shards of 3. */
function threadsOnTwoShards(): [string, string] {
  const a = 'thread-a';
  for (let n = 0; ; n += 1) {
    const b = `thread-b${n}`;
    if (threadShard(b, 3) !== threadShard(a, 3)) return [a, b];
  }
}

describe('sharded thread/run store, break pass', () => {
  it('refuses a run id created at once on threads of two shards by two processes (one run, one conflict)', async () => {
    const prefix = uniquePrefix('brk');
    const other = clusterClient(nodes);
    const one = new ShardedRedisThreadRunStore({ redis: client, prefix, shards: 3 });
    const two = new ShardedRedisThreadRunStore({ redis: other as never, prefix, shards: 3 });
    try {
      const [a, b] = threadsOnTwoShards();
      await one.createThread({ id: a });
      await one.createThread({ id: b });
      const doubled: string[] = [];
      for (let round = 0; round < 30; round += 1) {
        const runId = `run-${round}`;
        const outcomes = await Promise.allSettled([
          one.createRun(runRecord(runId, a)),
          two.createRun(runRecord(runId, b)),
        ]);
        const created = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        for (const outcome of outcomes) {
          if (outcome.status === 'rejected') {
            expect(AwakenError.isInstance(outcome.reason) && outcome.reason.code).toBe('conflict');
          }
        }
        if (created.length !== 1) doubled.push(runId);
        // whichever won, both processes find it on its own thread
        const [seenByOne, seenByTwo] = await Promise.all([one.getRun(runId), two.getRun(runId)]);
        expect(seenByOne?.threadId).toBeDefined();
        expect(seenByTwo?.threadId).toBe(seenByOne?.threadId);
      }
      expect(doubled).toEqual([]);
      const listed = [...(await one.listRuns(a)).items, ...(await one.listRuns(b)).items];
      expect(listed).toHaveLength(30);
    } finally {
      await deleteClusterKeys(client, prefix);
      await other.quit();
    }
  });

  it('keeps runs and threads with odd ids ({, }, :, unicode, 500 chars, __proto__)', async () => {
    const prefix = uniquePrefix('brk');
    const store = new ShardedRedisThreadRunStore({ redis: client, prefix, shards: 3 });
    const peer = new ShardedRedisThreadRunStore({ redis: client, prefix, shards: 3 });
    try {
      const ids = ['{x}', '}{', 'a:b:c', 'rt:x', 'héllo-🙂', 'x'.repeat(500), '__proto__', 'constructor'];
      for (const id of ids) {
        await store.createThread({ id });
        await store.createRun(runRecord(`${id}-run`, id));
      }
      for (const id of ids) {
        expect((await peer.getThread(id))?.id).toBe(id);
        expect((await peer.getRun(`${id}-run`))?.threadId).toBe(id);
      }
      const threads = await peer.listThreads({ limit: 3 });
      const all = [...threads.items];
      let cursor = threads.nextCursor;
      while (cursor) {
        const page = await peer.listThreads({ limit: 3, cursor });
        all.push(...page.items);
        cursor = page.nextCursor;
      }
      expect(all.map((thread) => thread.id)).toEqual(ids);
    } finally {
      await deleteClusterKeys(client, prefix);
    }
  });
});

function runRecord(runId: string, threadId: string): RunRecord {
  return {
    runId,
    threadId,
    agentId: 'agent',
    origin: 'user',
    status: 'created',
    steps: 0,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    state: {},
    version: 0,
    createdAt: 1,
    updatedAt: 1,
  };
}
