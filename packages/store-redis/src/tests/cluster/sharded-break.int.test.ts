import { AwakenError, type RunRecord } from '@awaken/contract';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { slotPrefix, threadShard } from '../../internal/cluster/cluster-topology';
import { mergeIndexPages } from '../../internal/cluster/merge-index-pages';
import { createMemoryStores } from '@awaken/store-memory';
import type { ThreadRunStore } from '@awaken/contract';
import { createRedisStores } from '../../create-redis-stores';
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
    const one = new ShardedRedisThreadRunStore({ redis: client as never, prefix, shards: 3 });
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
    const store = new ShardedRedisThreadRunStore({ redis: client as never, prefix, shards: 3 });
    const peer = new ShardedRedisThreadRunStore({ redis: client as never, prefix, shards: 3 });
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

  it('answers as the memory store for a branch of a branch across shards, its messages, and its deleted source', async () => {
    const prefix = uniquePrefix('brk');
    const sharded = new ShardedRedisThreadRunStore({ redis: client as never, prefix, shards: 3 });
    const memory = createMemoryStores().threadRuns;
    // ids on three different shards
    const ids = ['src'];
    for (let n = 0; ids.length < 3; n += 1) {
      const id = `b${n}`;
      if (!ids.some((taken) => threadShard(taken, 3) === threadShard(id, 3))) ids.push(id);
    }
    const [source, first, second] = ids as [string, string, string];
    const script = async (
      store: ThreadRunStore & Pick<ShardedRedisThreadRunStore, 'createBranch' | 'listBranches'>,
    ) => {
      const seen: unknown[] = [];
      const settle = async (call: () => Promise<unknown>) => {
        try {
          seen.push(await call());
        } catch (error) {
          seen.push({ error: AwakenError.isInstance(error) ? error.code : String(error) });
        }
      };
      const user = (content: string) => ({
        visibility: 'external' as const,
        message: { role: 'user' as const, content },
      });
      await store.createThread({ id: source });
      await store.appendMessages(source, { expectedLength: 0, messages: [user('a'), user('b'), user('c')] });
      await settle(() => store.createBranch({ threadId: source, atSeq: 2, id: first }));
      await settle(() => store.appendMessages(first, { expectedLength: 2, messages: [user('d')] }));
      await settle(() => store.createBranch({ threadId: first, atSeq: 3, id: second }));
      await settle(() => store.createBranch({ threadId: first, atSeq: 4, id: 'too-far' }));
      await settle(() => store.messageCount(second));
      await settle(async () =>
        (await store.readMessages(second)).map((record) => [record.seq, record.message]),
      );
      await settle(async () => (await store.listBranches(source)).items.map((thread) => thread.id));
      await settle(async () => (await store.listBranches(first)).items.map((thread) => thread.id));
      await settle(() => store.deleteThread(source));
      await settle(async () =>
        (await store.readMessages(second)).map((record) => [record.seq, record.message]),
      );
      await settle(async () =>
        (await store.readMessages(first)).map((record) => [record.seq, record.message]),
      );
      await settle(() => store.messageCount(first));
      await settle(() => store.deleteThread(first));
      await settle(async () =>
        (await store.readMessages(second)).map((record) => [record.seq, record.message]),
      );
      await settle(async () => (await store.listThreads()).items.map((thread) => thread.id));
      const plain = (value: unknown): unknown =>
        Array.isArray(value)
          ? value.map(plain)
          : value && typeof value === 'object' && 'createdAt' in value
            ? { id: (value as { id?: string }).id, seq: (value as { seq?: number }).seq }
            : value;
      return seen.map(plain);
    };
    try {
      expect(await script(sharded)).toEqual(await script(memory as never));
    } finally {
      await deleteClusterKeys(client, prefix);
    }
  });

  it("leaves a run id's event log where it is when a create of the run finds no thread (as the differential found)", async () => {
    const prefix = uniquePrefix('brk');
    const stores = createRedisStores({ redis: client as never, prefix, mailboxShards: 3 });
    const reader = createRedisStores({ redis: client as never, prefix, mailboxShards: 3 });
    try {
      const runId = 'r0';
      // two missing threads on shards other than the run id's own
      const missing = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        .map((n) => `missing-${n}`)
        .filter((id) => threadShard(id, 3) !== threadShard(runId, 3));
      await expect(stores.threadRuns.createRun(runRecord(runId, missing[0] as string))).rejects.toMatchObject(
        {
          code: 'not_found',
        },
      );
      await stores.eventLog.append(runId, [{ type: 'step_start', step: 1, runId, seq: 1, at: 1 }]);
      await stores.eventLog.finish(runId);
      await expect(stores.threadRuns.createRun(runRecord(runId, missing[1] as string))).rejects.toMatchObject(
        {
          code: 'not_found',
        },
      );
      for (const store of [stores, reader]) {
        expect(await store.eventLog.isFinished(runId)).toBe(true);
        expect(await store.eventLog.lastSeq(runId)).toBe(1);
      }
    } finally {
      await stores.close();
      await reader.close();
      await deleteClusterKeys(client, prefix);
    }
  });

  it('lists a run once in a page of several statuses while it moves between them (the index reads of a round are not one snapshot)', async () => {
    const prefix = uniquePrefix('brk');
    // what two range reads of one round can see while a run moves from created (seq 2) to running
    // (seq 7): r1 in both status indexes; on one node one script reads both, so it is listed once
    const shards = [0, 1].map((shard) => slotPrefix(prefix, `${prefix}s${shard}`));
    try {
      await client.zadd(`${shards[0]}created`, 1, 'r0', 2, 'r1');
      await client.zadd(`${shards[0]}running`, 7, 'r1');
      await client.zadd(`${shards[1]}created`, 3, 'r2', 5, 'r3');
      const ids = async (reverse: boolean, limit: number) => {
        const out: string[] = [];
        let cursor: string | undefined;
        // the records as loaded after the move: r1 is running
        const statuses = ['created', 'running'];
        do {
          const page = await mergeIndexPages<{ id: string; status: string }>({
            shards: shards.map((shard) => ({
              redis: client as never,
              keys: statuses.map((status) => `${shard}${status}`),
              load: async (batch) => batch.map((id) => ({ id, status: id === 'r1' ? 'running' : 'created' })),
            })),
            reverse,
            limit,
            ...(cursor ? { cursor } : {}),
            // as the sharded store lists runs: an entry counts only in the index of the run's status
            accept: (run, key) => run.status === statuses[key],
          });
          out.push(...page.items.map((run) => run.id));
          cursor = page.nextCursor;
        } while (cursor);
        return out;
      };
      for (const limit of [1, 2, 10]) {
        expect(await ids(true, limit), `newest first, limit ${limit}`).toEqual(['r1', 'r3', 'r2', 'r0']);
        expect(await ids(false, limit), `oldest first, limit ${limit}`).toEqual(['r0', 'r2', 'r3', 'r1']);
      }
    } finally {
      await deleteClusterKeys(client, prefix);
    }
  });

  it('finds the events and controls written for a run id before its run was created on a thread of another shard (differential seed 31337)', async () => {
    const prefix = uniquePrefix('brk');
    const writer = createRedisStores({ redis: client as never, prefix, mailboxShards: 3 });
    const reader = createRedisStores({ redis: client as never, prefix, mailboxShards: 3 });
    try {
      // a run id whose own hash is not its thread's shard
      let runId = 'early-0';
      for (let n = 1; threadShard(runId, 3) === threadShard('th-early', 3); n += 1) runId = `early-${n}`;
      await writer.eventLog.append(runId, [{ type: 'step_start', step: 1, runId, seq: 1, at: 1 }]);
      await writer.inbox.put(runId, { id: 'c1', kind: 'cancel', at: 1 });
      await writer.threadRuns.createThread({ id: 'th-early' });
      await writer.threadRuns.createRun(runRecord(runId, 'th-early'));
      for (const stores of [writer, reader]) {
        expect(await stores.eventLog.lastSeq(runId)).toBe(1);
        expect((await stores.inbox.peek(runId)).map((control) => control.id)).toEqual(['c1']);
      }
      await reader.eventLog.append(runId, [{ type: 'step_end', step: 1, runId, seq: 2, at: 2 }]);
      expect((await writer.eventLog.read(runId)).map((event) => event.seq)).toEqual([1, 2]);
    } finally {
      await writer.close();
      await reader.close();
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
