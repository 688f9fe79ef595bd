import type { ThreadRunStore } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectInvalidField } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import { itChecksInput } from '../internal/it-checks-input';
import type { SuiteContext } from '../suite-context';
import { assistantMessage, newRunRecord, nextCheckpoint, threadWithRun, userMessage } from './fixtures';

/** Text cut inside an emoji (`'👍 ok'.slice(1)`): a lone UTF-16 surrogate. */
const CUT = '👍 ok'.slice(1);

/**
 * Stored text is well-formed Unicode: a string or member name with a lone UTF-16 surrogate (which no
 * UTF-8 backend keeps as it is) is rejected naming its path, on every backend alike, and nothing is
 * written; whole surrogate pairs (emoji) are kept exactly.
 */
export function unicodeTextSpec(ctx: SuiteContext<ThreadRunStore>): void {
  describe('unicode text', () => {
    itChecksInput(
      ctx,
      'rejects a lone surrogate in metadata, messages, run records and checkpoints, writing nothing',
      async () => {
        const { threadId, run } = await threadWithRun(ctx.store);
        const threadIdToCreate = uniqueId('thread');
        await expectInvalidField(
          ctx.store.createThread({ id: threadIdToCreate, metadata: { title: CUT } }),
          /metadata\.title.*lone UTF-16 surrogate/,
        );
        await expectInvalidField(
          ctx.store.createThread({ id: threadIdToCreate, metadata: { [`k${CUT}`]: 1 } }),
          /metadata.*member name/,
        );
        expect(await ctx.store.getThread(threadIdToCreate)).toBeNull();
        await expectInvalidField(
          ctx.store.updateThreadMetadata(threadId, { nested: { list: ['ok', CUT] } }),
          /metadata\.nested\.list\.1/,
        );
        expect((await ctx.store.getThread(threadId))?.metadata).toEqual({});
        await expectInvalidField(
          ctx.store.appendMessages(threadId, { expectedLength: 0, messages: [userMessage(CUT)] }),
          /messages\.0\.message\.content/,
        );
        await expectInvalidField(
          ctx.store.appendMessages(threadId, {
            expectedLength: 0,
            messages: [userMessage('fine'), assistantMessage(`a\uD800`, run.runId, 1)],
          }),
          /messages\.1\.message\.text/,
        );
        expect(await ctx.store.messageCount(threadId)).toBe(0);
        const other = newRunRecord(threadId, { state: { note: CUT } });
        await expectInvalidField(ctx.store.createRun(other), /state\.note/);
        expect(await ctx.store.getRun(other.runId)).toBeNull();
        await expectInvalidField(
          ctx.store.commitCheckpoint({
            ...(await nextCheckpoint(ctx.store, run, 'running', [userMessage('kept?')])),
            threadState: { draft: CUT },
          }),
          /threadState\.draft/,
        );
        expect(await ctx.store.getRun(run.runId)).toEqual(run);
        expect(await ctx.store.messageCount(threadId)).toBe(0);
      },
    );

    it('keeps whole surrogate pairs exactly', async () => {
      const { threadId } = await threadWithRun(ctx.store);
      await ctx.store.updateThreadMetadata(threadId, { '👍': '👍 ok' });
      await ctx.store.appendMessages(threadId, { expectedLength: 0, messages: [userMessage('𝄞👍')] });
      expect((await ctx.store.getThread(threadId))?.metadata).toEqual({ '👍': '👍 ok' });
      const [stored] = await ctx.store.readMessages(threadId);
      expect(stored?.message).toEqual({ role: 'user', content: '𝄞👍' });
    });
  });
}
