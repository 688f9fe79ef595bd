import { defineTool, toolPending } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSharedStores } from '../../../test-support/shared-stores';

/**
 * A decision that names only its tool call id, sent for the question a human
 * saw (ticket ask_0) while the call executes its first answer, must never be applied to the call's
 * NEXT question (ticket ask_1), which nobody has seen yet.
 */
function twoQuestionTool() {
  let release!: () => void;
  const blocked = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered!: () => void;
  const executing = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const rounds: number[] = [];
  const tool = defineTool({
    name: 'ask',
    description: 'asks twice',
    parameters: z.object({}).passthrough(),
    execute: async (_args, context) => {
      const round = Number((context.resume?.result as { round?: number } | undefined)?.round ?? 0);
      rounds.push(round);
      if (round === 1) {
        entered();
        await blocked;
        return toolPending({ id: 'ask_1', action: 'input', message: 'second question', parameters: {} });
      }
      if (round === 0) {
        return toolPending({ id: 'ask_0', action: 'input', message: 'first question', parameters: {} });
      }
      return { finalRound: round };
    },
  });
  return { tool, release, executing, rounds };
}

describe('a decision deferred to the owner of an executing run', () => {
  it('is never applied to a question (ticket) nobody saw', async () => {
    const s = createSharedStores();
    const ask = twoQuestionTool();
    const opts = { tools: [ask.tool], calls: [{ id: 'x', name: 'ask' }] };
    const a = s.runtime(opts);
    const b = s.runtime(opts);
    const live = a.run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' });
    await expect.poll(async () => (await s.store.getRun('r'))?.status).toBe('waiting');
    const first = await live.decide([
      { toolCallId: 'x', decisionId: 'first', action: 'resume', result: { round: 1 }, updatedAt: 1 },
    ]);
    expect(first[0]).toMatchObject({ status: 'accepted', ticketId: 'ask_0' });
    await ask.executing;
    await expect.poll(async () => (await s.store.getRun('r'))?.status).toBe('running');
    // a second human answers the question they saw (ask_0), naming the call by its id
    const stale = await b.decide('r', [
      { toolCallId: 'x', decisionId: 'stale', action: 'resume', result: { round: 2 }, updatedAt: 1 },
    ]);
    ask.release();
    await expect
      .poll(async () => (await s.store.getRun('r'))?.status, { timeout: 3_000 })
      .not.toBe('running');
    const record = await s.store.getRun('r');
    // what we require: the answer to ask_0 was not accepted, and ask_1 still waits for a human
    expect(ask.rounds).toEqual([0, 1]);
    expect(record?.status).toBe('waiting');
    expect(stale.receipts[0]?.status).not.toBe('accepted');
    live.cancel();
    await live.result;
  });
});
