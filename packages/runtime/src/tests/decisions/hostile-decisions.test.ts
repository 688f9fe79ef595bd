import type { DecisionReceipt } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { approve } from '../../../test-support/harness';
import { createSharedStores } from '../../../test-support/shared-stores';

/**
 * Bad decisions on every runtime path (`handle.decide` of the live run,
 * `runtime.decide` from another runtime on the shared stores, `resumeRun(…, { decisions })` of a
 * waiting run nobody holds): a ticket id given as toolCallId, and malformed decisions, are each
 * rejected with a clear reason, nothing stored, nothing thrown; the run still takes a good answer.
 */
function deep(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let index = 0; index < levels; index += 1) value = { next: value };
  return value;
}

const huge = 'x'.repeat(2_000_000);
const hostile = (ticketId: string): Array<[string, unknown, string[]]> => [
  ['ticket id as toolCallId', approve(ticketId, { approved: true }, 'tid'), ['unknown_tool_call']],
  ['__proto__ toolCallId', approve('__proto__', { approved: true }, 'p1'), ['unknown_tool_call']],
  [
    '__proto__ ticketId',
    { ticketId: '__proto__', decisionId: 'p2', action: 'resume', updatedAt: 1 },
    ['unknown_tool_call'],
  ],
  ['constructor toolCallId', approve('constructor', { approved: true }, 'p3'), ['unknown_tool_call']],
  ['huge toolCallId', approve(huge, { approved: true }, 'h1'), ['unknown_tool_call', 'invalid_payload']],
  [
    'NaN updatedAt',
    { ...approve('a', { approved: true }, 'n1'), updatedAt: Number.NaN },
    ['invalid_payload'],
  ],
  [
    'Infinity updatedAt',
    { ...approve('a', { approved: true }, 'n2'), updatedAt: Number.POSITIVE_INFINITY },
    ['invalid_payload'],
  ],
  ['deep result', approve('a', deep(5_000), 'deep'), ['invalid_payload']],
  ['no names', { decisionId: 'x', action: 'resume', updatedAt: 1 }, ['invalid_payload']],
  ['empty decisionId', approve('a', { approved: true }, ''), ['invalid_payload']],
  ['bad action', { ...approve('a'), decisionId: 'ba', action: 'explode' }, ['invalid_payload']],
  ['null', null, ['invalid_payload']],
  ['string', 'approve a', ['invalid_payload']],
];

async function waitingRun(s: ReturnType<typeof createSharedStores>, live: boolean) {
  const runtime = s.runtime();
  const handle = live
    ? runtime.run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' })
    : undefined;
  if (!live) await runtime.runToCompletion({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' });
  await expect.poll(async () => (await s.store.getRun('r'))?.status).toBe('waiting');
  const ticketId = (await s.store.getRun('r'))!.waiting!.tickets[0]!.ticketId;
  return { runtime, handle, ticketId };
}

describe('hostile decisions on every runtime path', () => {
  const paths = ['handle.decide', 'runtime.decide (other runtime)', 'resumeRun'] as const;
  for (const path of paths) {
    it(`${path}: each is rejected with its reason, nothing stored; the run still takes a good answer`, async () => {
      const s = createSharedStores();
      const { handle, ticketId } = await waitingRun(s, path !== 'resumeRun');
      for (const [label, decision, reasons] of hostile(ticketId)) {
        let receipts: DecisionReceipt[];
        if (path === 'handle.decide') receipts = await handle!.decide([decision as never]);
        else if (path === 'runtime.decide (other runtime)')
          receipts = (await s.runtime().decide('r', [decision as never])).receipts;
        else {
          const resumed = s.runtime().resumeRun('r', { decisions: [decision as never] });
          receipts = await resumed.receipts;
          await resumed.result;
        }
        expect(receipts, label).toHaveLength(1);
        expect(receipts[0]?.status, label).toBe('rejected');
        expect(reasons, `${label}: ${JSON.stringify(receipts[0]).slice(0, 300)}`).toContain(
          receipts[0]?.status === 'rejected' ? receipts[0].reason : undefined,
        );
        if (label === 'ticket id as toolCallId' && receipts[0]?.status === 'rejected') {
          expect(receipts[0].message).toContain('is a ticket id');
        }
        expect(await s.inbox.peek('r'), label).toEqual([]);
        expect((await s.store.getRun('r'))?.status, label).toBe('waiting');
      }
      expect(s.danger.executions('a')).toBe(0);
      // a good answer still goes through
      const good = handle
        ? await handle.decide([approve('a')])
        : await s
            .runtime()
            .decide('r', [approve('a')])
            .then((d) => d.receipts);
      expect(good[0]?.status).toBe('accepted');
      await s.danger.started('a');
      s.danger.release('a', { ok: 1 });
      await expect.poll(async () => (await s.store.getRun('r'))?.status).toBe('done');
      expect(s.danger.executions('a')).toBe(1);
    }, 30_000);
  }
});
