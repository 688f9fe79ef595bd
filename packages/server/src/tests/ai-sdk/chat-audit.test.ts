import { readDecisionRecords } from '@awaken/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type ChatFixture,
  approvalPart,
  continuation,
  createChatFixture,
} from '../../../test-support/chat-fixture';

let fx: ChatFixture;
beforeAll(async () => {
  fx = await createChatFixture();
});
afterAll(() => fx.close());

describe('an approval given in an AI SDK chat', () => {
  it('is recorded in the audit trail with channel ai-sdk and the caller as approver', async () => {
    const turn = await fx.ask('chat-audit', 'approve:1 #audit');
    const [call] = turn.calls;
    expect(await fx.send(continuation(turn, [approvalPart(call!, false, 'not now')]))).toEqual({
      status: 200,
    });
    const record = await vi.waitFor(
      async () => {
        const run = await fx.stores.threadRuns.getRun(turn.messageId);
        expect(run?.status).toBe('done');
        return run!;
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(readDecisionRecords(record)).toMatchObject([
      {
        toolCallId: call!.toolCallId,
        decidedBy: 'default',
        channel: 'ai-sdk',
        answer: { approved: false, reason: 'not now' },
      },
    ]);
    const listed = await (await fx.get(`/v1/runs/${turn.messageId}/decisions`)).json();
    expect(listed.decisions).toEqual(readDecisionRecords(record));
  });
});
