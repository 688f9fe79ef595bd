import { defineTool, toolPending } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSharedStores } from '../../../test-support/shared-stores';

/**
 * While a run executes elsewhere, one process answers a call by its tool call id and another answers
 * the same call's question by its ticket id, differently, before the question was asked. The promise:
 * two different answers for one call never both get `accepted` — and an answer to a question nobody
 * was asked yet is refused, never kept for later.
 */
function blockedAsk() {
  let release!: () => void;
  const blocked = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered!: () => void;
  const executing = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const answers: unknown[] = [];
  const tool = defineTool({
    name: 'ask',
    description: 'asks once, after some work',
    parameters: z.object({}).passthrough(),
    execute: async (_args, context) => {
      if (context.resume) {
        answers.push(context.resume.result);
        return { answer: context.resume.result };
      }
      entered();
      await blocked;
      return toolPending({ id: 'ask_0', action: 'input', message: 'question', parameters: {} });
    },
  });
  return { tool, release, executing, answers };
}

describe('two different answers naming one call two ways while its run executes elsewhere', () => {
  it('are never both accepted: before the question is asked, both are refused', async () => {
    const s = createSharedStores();
    const ask = blockedAsk();
    const opts = { tools: [ask.tool], calls: [{ id: 'x', name: 'ask' }] };
    const owner = s.runtime(opts);
    const live = owner.run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' });
    await ask.executing;
    await expect.poll(async () => (await s.store.getRun('r'))?.status).toBe('running');
    const [byCall, byTicket] = await Promise.all([
      s
        .runtime(opts)
        .decide('r', [
          { toolCallId: 'x', decisionId: 'by-call', action: 'resume', result: 'left', updatedAt: 1 },
        ]),
      s
        .runtime(opts)
        .decide('r', [
          { ticketId: 'ask_0', decisionId: 'by-ticket', action: 'resume', result: 'right', updatedAt: 1 },
        ]),
    ]);
    // the question is not asked yet: neither answer can be accepted, nor kept for later
    expect(byCall.receipts).toMatchObject([{ status: 'rejected', reason: 'not_suspended' }]);
    expect(byTicket.receipts).toMatchObject([{ status: 'rejected', reason: 'unknown_tool_call' }]);
    expect(await s.inbox.peek('r')).toEqual([]);
    ask.release();
    await expect
      .poll(async () => (await s.store.getRun('r'))?.waiting?.ticketIds, { timeout: 3_000 })
      .toEqual(['ask_0']);
    expect(ask.answers).toEqual([]);
    live.cancel('done with the test');
    await live.result;
  });
});
