import {
  type MessageRecord,
  type NewMessage,
  type ThreadBranching,
  type ThreadRunStore,
  messageRecordSchema,
  threadBranching,
  threadSchema,
} from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectInvalidField, expectValid } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import { assistantMessage, newRunRecord, nextCheckpoint, userMessage } from './fixtures';

function branching(store: ThreadRunStore): ThreadBranching {
  const found = threadBranching(store);
  if (!found) throw new Error('the store does not offer thread branching');
  return found;
}

const contents = (records: MessageRecord[]) =>
  records.map((record) => (record.message.role === 'user' ? record.message.content : record.message.role));

/** A thread holding `count` user messages `m1`..`m<count>`, written in batches. */
async function threadOf(store: ThreadRunStore, count: number, title = 'm1'): Promise<string> {
  const thread = await store.createThread({ id: uniqueId('thread') });
  const messages: NewMessage[] = Array.from({ length: count }, (_, index) =>
    userMessage(index === 0 ? title : `m${index + 1}`),
  );
  await store.appendMessages(thread.id, { expectedLength: 0, messages });
  return thread.id;
}

/** The optional `ThreadBranching` capability (every backend of this repository offers it). */
export function branchesSpec(ctx: { store: ThreadRunStore; trusted: boolean }): void {
  describe('thread branches', () => {
    it('reads prefix + own messages, continues the seqs, and leaves the source untouched', async () => {
      const sourceId = await threadOf(ctx.store, 5);
      const sourceBefore = await ctx.store.getThread(sourceId);
      const branch = await branching(ctx.store).createBranch({
        threadId: sourceId,
        atSeq: 3,
        metadata: { label: 'retry' },
      });
      expectValid(threadSchema, branch);
      expect(branch).toMatchObject({
        metadata: { label: 'retry' },
        title: 'm1',
        branchOf: { threadId: sourceId, seq: 3 },
      });
      expect(branch.id).not.toBe(sourceId);
      expect(await ctx.store.getThread(branch.id)).toEqual(branch);
      expect(await ctx.store.messageCount(branch.id)).toBe(3);
      expect(contents(await ctx.store.readMessages(branch.id))).toEqual(['m1', 'm2', 'm3']);

      const appended = await ctx.store.appendMessages(branch.id, {
        expectedLength: 3,
        messages: [userMessage('b4'), userMessage('b5')],
      });
      expect(appended.map((record) => [record.threadId, record.seq])).toEqual([
        [branch.id, 4],
        [branch.id, 5],
      ]);
      const read = await ctx.store.readMessages(branch.id);
      for (const record of read) expectValid(messageRecordSchema, record);
      expect(contents(read)).toEqual(['m1', 'm2', 'm3', 'b4', 'b5']);
      expect(read.map((record) => record.seq)).toEqual([1, 2, 3, 4, 5]);
      // prefix records are the source's own, shared, not copies
      expect(read.slice(0, 3).map((record) => record.threadId)).toEqual([sourceId, sourceId, sourceId]);
      expect(await ctx.store.messageCount(branch.id)).toBe(5);
      // a stale length (the source's, or the prefix alone) is refused
      await expectAwakenError(
        ctx.store.appendMessages(branch.id, { expectedLength: 3, messages: [userMessage('late')] }),
        'stale_append',
      );

      expect(await ctx.store.getThread(sourceId)).toEqual(sourceBefore);
      expect(contents(await ctx.store.readMessages(sourceId))).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
      expect(await ctx.store.messageCount(sourceId)).toBe(5);
      await ctx.store.appendMessages(sourceId, { expectedLength: 5, messages: [userMessage('m6')] });
      expect(contents(await ctx.store.readMessages(branch.id))).toEqual(['m1', 'm2', 'm3', 'b4', 'b5']);
    });

    it('pages and filters across the prefix boundary', async () => {
      const sourceId = await threadOf(ctx.store, 4);
      await ctx.store.appendMessages(sourceId, {
        expectedLength: 4,
        messages: [{ ...userMessage('hidden'), visibility: 'internal' }],
      });
      const branch = await branching(ctx.store).createBranch({ threadId: sourceId, atSeq: 5 });
      await ctx.store.appendMessages(branch.id, {
        expectedLength: 5,
        messages: [userMessage('b6'), { ...userMessage('b7'), visibility: 'internal' }, userMessage('b8')],
      });
      expect(contents(await ctx.store.readMessages(branch.id, { from: 4, to: 6 }))).toEqual([
        'm4',
        'hidden',
        'b6',
      ]);
      expect(contents(await ctx.store.readMessages(branch.id, { from: 5, to: 5 }))).toEqual(['hidden']);
      expect(contents(await ctx.store.readMessages(branch.id, { from: 6 }))).toEqual(['b6', 'b7', 'b8']);
      expect(contents(await ctx.store.readMessages(branch.id, { to: 2 }))).toEqual(['m1', 'm2']);
      expect(contents(await ctx.store.readMessages(branch.id, { from: 7, to: 100 }))).toEqual(['b7', 'b8']);
      expect(await ctx.store.readMessages(branch.id, { from: 9 })).toEqual([]);
      expect(await ctx.store.readMessages(branch.id, { from: 5, to: 4 })).toEqual([]);
      expect(
        contents(await ctx.store.readMessages(branch.id, { from: 3, to: 7, visibility: 'internal' })),
      ).toEqual(['hidden', 'b7']);
      expect(contents(await ctx.store.readMessages(branch.id, { from: 3, visibility: 'external' }))).toEqual([
        'm3',
        'm4',
        'b6',
        'b8',
      ]);
    });

    it('branches a branch, inside its prefix or after it, recursively', async () => {
      const rootId = await threadOf(ctx.store, 4);
      const store = branching(ctx.store);
      const first = await store.createBranch({ threadId: rootId, atSeq: 3 });
      await ctx.store.appendMessages(first.id, {
        expectedLength: 3,
        messages: [userMessage('f4'), userMessage('f5')],
      });
      const second = await store.createBranch({ threadId: first.id, atSeq: 4 });
      await ctx.store.appendMessages(second.id, { expectedLength: 4, messages: [userMessage('s5')] });
      expect(contents(await ctx.store.readMessages(second.id))).toEqual(['m1', 'm2', 'm3', 'f4', 's5']);
      expect(contents(await ctx.store.readMessages(second.id, { from: 3, to: 4 }))).toEqual(['m3', 'f4']);
      // inside the first branch's prefix: only the root's messages up to there
      const early = await store.createBranch({ threadId: first.id, atSeq: 2 });
      expect(early.branchOf).toEqual({ threadId: first.id, seq: 2 });
      expect(contents(await ctx.store.readMessages(early.id))).toEqual(['m1', 'm2']);
      const third = await store.createBranch({ threadId: second.id, atSeq: 5 });
      expect(await ctx.store.messageCount(third.id)).toBe(5);
      expect(contents(await ctx.store.readMessages(third.id))).toEqual(['m1', 'm2', 'm3', 'f4', 's5']);
      // a branch at 0 shares nothing
      const empty = await store.createBranch({ threadId: second.id, atSeq: 0 });
      expect(await ctx.store.messageCount(empty.id)).toBe(0);
      expect(await ctx.store.readMessages(empty.id)).toEqual([]);
      await ctx.store.appendMessages(empty.id, { expectedLength: 0, messages: [userMessage('e1')] });
      expect(contents(await ctx.store.readMessages(empty.id))).toEqual(['e1']);
    });

    it('checkpoints runs on a branch after the prefix', async () => {
      const sourceId = await threadOf(ctx.store, 2);
      const branch = await branching(ctx.store).createBranch({ threadId: sourceId, atSeq: 2 });
      const run = await ctx.store.createRun(newRunRecord(branch.id));
      const checkpoint = await nextCheckpoint(ctx.store, run, 'running', [
        assistantMessage('answer', run.runId, 0),
      ]);
      expect(checkpoint.expectedMessageCount).toBe(2);
      await ctx.store.commitCheckpoint(checkpoint);
      const read = await ctx.store.readMessages(branch.id);
      expect(read.map((record) => [record.seq, record.message.role])).toEqual([
        [1, 'user'],
        [2, 'user'],
        [3, 'assistant'],
      ]);
      expect(await ctx.store.getThread(branch.id)).toMatchObject({
        activeRunId: run.runId,
        branchOf: { threadId: sourceId, seq: 2 },
      });
      expect((await ctx.store.listRuns(sourceId)).items).toEqual([]);
      const stale = await nextCheckpoint(ctx.store, { ...run, version: 1, status: 'running' }, 'done');
      await expectAwakenError(
        ctx.store.commitCheckpoint({ ...stale, expectedMessageCount: 1 }),
        'stale_append',
      );
    });

    it("lists a thread's branches oldest first, in pages, and those of one message", async () => {
      const sourceId = await threadOf(ctx.store, 3);
      const store = branching(ctx.store);
      const made = [];
      for (const atSeq of [2, 3, 2, 1, 2]) made.push(await store.createBranch({ threadId: sourceId, atSeq }));
      // a branch of a branch is its own source's, not the root's
      await store.createBranch({ threadId: made[0]?.id ?? '', atSeq: 1 });
      const ids = made.map((thread) => thread.id);
      const first = await store.listBranches(sourceId, { limit: 2 });
      expect(first.items.map((thread) => thread.id)).toEqual(ids.slice(0, 2));
      expect(first.nextCursor).toBeDefined();
      const rest = await store.listBranches(sourceId, { cursor: first.nextCursor, limit: 10 });
      expect(rest.items.map((thread) => thread.id)).toEqual(ids.slice(2));
      expect(rest.nextCursor).toBeUndefined();
      for (const thread of rest.items) expectValid(threadSchema, thread);
      const atTwo = await store.listBranches(sourceId, { atSeq: 2, limit: 2 });
      expect(atTwo.items.map((thread) => thread.id)).toEqual([ids[0], ids[2]]);
      const atTwoRest = await store.listBranches(sourceId, { atSeq: 2, cursor: atTwo.nextCursor });
      expect(atTwoRest.items.map((thread) => thread.id)).toEqual([ids[4]]);
      expect((await store.listBranches(sourceId, { atSeq: 3 })).items.map((t) => t.id)).toEqual([ids[1]]);
      expect((await store.listBranches(sourceId, { atSeq: 4 })).items).toEqual([]);
      expect((await store.listBranches(uniqueId('unknown'))).items).toEqual([]);
      // a branch is a thread like any other in the thread list
      const listed = await ctx.store.listThreads({ limit: 1000 });
      expect(listed.items.map((thread) => thread.id)).toEqual(expect.arrayContaining(ids));
    });

    it('refuses to delete a thread that has branches; deleting a branch unlists it', async () => {
      const sourceId = await threadOf(ctx.store, 2);
      const store = branching(ctx.store);
      const branch = await store.createBranch({ threadId: sourceId, atSeq: 1 });
      const nested = await store.createBranch({ threadId: branch.id, atSeq: 1 });
      await expectAwakenError(ctx.store.deleteThread(sourceId), 'conflict');
      await expectAwakenError(ctx.store.deleteThread(branch.id), 'conflict');
      expect(await ctx.store.messageCount(sourceId)).toBe(2);
      expect(contents(await ctx.store.readMessages(nested.id))).toEqual(['m1']);
      expect(await ctx.store.deleteThread(nested.id)).toBe(true);
      expect((await store.listBranches(branch.id)).items).toEqual([]);
      expect(await ctx.store.deleteThread(branch.id)).toBe(true);
      expect((await store.listBranches(sourceId)).items).toEqual([]);
      expect(contents(await ctx.store.readMessages(sourceId))).toEqual(['m1', 'm2']);
      expect(await ctx.store.deleteThread(sourceId)).toBe(true);
    });

    it('refuses an unknown source, a seq past the log and an existing id, writing nothing', async () => {
      const store = branching(ctx.store);
      await expectAwakenError(store.createBranch({ threadId: uniqueId('unknown'), atSeq: 0 }), 'not_found');
      const sourceId = await threadOf(ctx.store, 2);
      await expectAwakenError(store.createBranch({ threadId: sourceId, atSeq: 3 }), 'not_found');
      const other = await ctx.store.createThread({ id: uniqueId('thread') });
      await expectAwakenError(store.createBranch({ threadId: sourceId, atSeq: 1, id: other.id }), 'conflict');
      const named = uniqueId('branch');
      expect((await store.createBranch({ threadId: sourceId, atSeq: 1, id: named })).id).toBe(named);
      expect((await store.listBranches(sourceId)).items.map((thread) => thread.id)).toEqual([named]);
    });

    if (!ctx.trusted) {
      it('rejects malformed input naming the field', async () => {
        const store = branching(ctx.store);
        const sourceId = await threadOf(ctx.store, 1);
        await expectInvalidField(store.createBranch({ threadId: '', atSeq: 1 }), /threadId/);
        await expectInvalidField(store.createBranch({ threadId: sourceId, atSeq: -1 }), /atSeq/);
        await expectInvalidField(store.createBranch({ threadId: sourceId, atSeq: 1.5 }), /atSeq/);
        await expectInvalidField(
          store.createBranch({ threadId: sourceId, atSeq: '1' as unknown as number }),
          /atSeq/,
        );
        await expectInvalidField(
          store.createBranch({
            threadId: sourceId,
            atSeq: 1,
            metadata: [] as unknown as Record<string, unknown>,
          }),
          /metadata/,
        );
        await expectInvalidField(store.listBranches(sourceId, { atSeq: -2 }), /atSeq/);
        await expectInvalidField(store.listBranches(sourceId, { cursor: 'x' }), /cursor/);
        expect((await store.listBranches(sourceId)).items).toEqual([]);
      });
    }
  });
}
