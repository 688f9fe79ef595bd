import type { ThreadRunStore } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectInvalidField } from '../internal/expectations';
import { itChecksInput } from '../internal/it-checks-input';
import type { SuiteContext } from '../suite-context';
import { nextCheckpoint, threadWithRun, userMessage } from './fixtures';

const toolResult = (content: unknown) => ({
  visibility: 'internal' as const,
  message: {
    role: 'tool' as const,
    toolCallId: 'c1',
    toolName: 'lookup',
    outcome: 'succeeded' as const,
    content,
  },
});

/**
 * Values are stored in their JSON form (as `JSON.stringify` writes them): what JSON cannot hold
 * faithfully (BigInt, NaN, ±Infinity, a cycle) is rejected naming its path, and stored values share
 * nothing with the caller's objects.
 */
export function jsonValuesSpec(ctx: SuiteContext<ThreadRunStore>): void {
  describe('JSON values', () => {
    itChecksInput(
      ctx,
      'rejects values JSON cannot hold faithfully, naming the field, and writes nothing',
      async () => {
        const { threadId, run } = await threadWithRun(ctx.store);
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        const cases: [() => Promise<unknown>, RegExp][] = [
          [() => ctx.store.createThread({ metadata: { count: 1n } }), /metadata\.count/],
          [() => ctx.store.updateThreadMetadata(threadId, { n: Number.NaN }), /metadata\.n/],
          [
            () => ctx.store.appendMessages(threadId, { expectedLength: 0, messages: [toolResult(1n)] }),
            /messages\.0\.message\.content/,
          ],
          [
            () => ctx.store.appendMessages(threadId, { expectedLength: 0, messages: [toolResult(cyclic)] }),
            /content\.self/,
          ],
          [
            () =>
              ctx.store.appendMessages(threadId, { expectedLength: 0, messages: [toolResult([Number.NaN])] }),
            /content\.0/,
          ],
          [
            async () =>
              ctx.store.commitCheckpoint({
                ...(await nextCheckpoint(ctx.store, run, 'running')),
                threadState: { k: [Number.NEGATIVE_INFINITY] },
              }),
            /threadState\.k\.0/,
          ],
          [
            async () =>
              ctx.store.commitCheckpoint({
                ...(await nextCheckpoint(ctx.store, run, 'running')),
                run: { ...run, status: 'running', version: 1, state: { x: Number.POSITIVE_INFINITY } },
              }),
            /run\.state\.x/,
          ],
        ];
        for (const [call, field] of cases) await expectInvalidField(call(), field);
        expect(await ctx.store.messageCount(threadId)).toBe(0);
        expect(await ctx.store.getRun(run.runId)).toEqual(run);
        expect((await ctx.store.getThread(threadId))?.metadata).toEqual({});
        const [record] = await ctx.store.appendMessages(threadId, {
          expectedLength: 0,
          messages: [userMessage('ok')],
        });
        expect(record?.seq).toBe(1);
      },
    );

    it('stores the JSON form: toJSON honoured, undefined members dropped, -0 as 0', async () => {
      const metadata = { kept: 1, gone: undefined, zero: -0, when: new Date(0), list: [undefined] };
      const thread = await ctx.store.createThread({ metadata });
      const stored = await ctx.store.getThread(thread.id);
      expect(stored?.metadata).toStrictEqual({
        kept: 1,
        zero: 0,
        when: '1970-01-01T00:00:00.000Z',
        list: [null],
      });
      expect(Object.is(stored?.metadata.zero, 0)).toBe(true);
      expect(thread).toEqual(stored);
    });

    it('keeps an own __proto__ member of a value as data', async () => {
      const { threadId } = await threadWithRun(ctx.store);
      const content = JSON.parse('{"__proto__": {"x": 1}, "y": 2}');
      await ctx.store.appendMessages(threadId, { expectedLength: 0, messages: [toolResult(content)] });
      const [record] = await ctx.store.readMessages(threadId);
      const stored = record?.message.role === 'tool' ? (record.message.content as object) : undefined;
      expect(Object.keys(stored ?? {})).toEqual(['__proto__', 'y']);
      expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    });

    it('keeps what was stored when the caller later mutates the objects it passed in or got back', async () => {
      const { threadId, run } = await threadWithRun(ctx.store);
      const content = { rows: [1, 2] };
      const message = toolResult(content);
      const [record] = await ctx.store.appendMessages(threadId, { expectedLength: 0, messages: [message] });
      content.rows.push(3);
      message.message.toolName = 'changed';
      if (record?.message.role === 'tool') (record.message.content as { rows: number[] }).rows.push(4);
      const state = { memory: { facts: ['a'] } };
      const checkpoint = await nextCheckpoint(ctx.store, run, 'running');
      const committed = await ctx.store.commitCheckpoint({
        ...checkpoint,
        threadState: state,
        run: { ...checkpoint.run, state },
      });
      state.memory.facts.push('b');
      (committed.state.memory as { facts: string[] }).facts.push('c');
      expect((await ctx.store.readMessages(threadId))[0]?.message).toEqual(
        toolResult({ rows: [1, 2] }).message,
      );
      expect(await ctx.store.getThreadState(threadId)).toEqual({ memory: { facts: ['a'] } });
      expect((await ctx.store.getRun(run.runId))?.state).toEqual({ memory: { facts: ['a'] } });
    });
  });
}
