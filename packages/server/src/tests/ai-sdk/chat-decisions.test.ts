import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type ChatFixture,
  approvalPart,
  continuation,
  createChatFixture,
} from '../../../test-support/chat-fixture';
import { scenarioAgent } from '../../../test-support/scenario-agent';
import { createMailboxService } from '../../create-mailbox-service';

const WAIT = { timeout: 10_000, interval: 20 };

/** The HTTP app runs no workers: a decision stays pending in the run's inbox until `drain()`. */
let fx: ChatFixture;
beforeAll(async () => {
  fx = await createChatFixture({ workers: 0 });
});
afterAll(() => fx.close());

/** A worker on the fixture's stores: it takes the queued resumes, then stops. */
async function drain(runId: string) {
  const worker = createMailboxService({
    agents: [scenarioAgent(fx.counters)],
    stores: fx.stores,
    concurrency: 1,
    leaseMs: 2_000,
    idleWaitMs: 50,
  });
  await worker.start();
  try {
    await vi.waitFor(async () => {
      expect((await fx.stores.threadRuns.getRun(runId))?.status).toBe('done');
    }, WAIT);
  } finally {
    await worker.stop({ graceMs: 1_000 });
  }
}

describe('decisions in chat requests that contradict each other', () => {
  it('a deny racing an approval of the same call is refused (409), not reported as applied', async () => {
    const turn = await fx.ask('race-approve-deny', 'approve:1 #race');
    const [call] = turn.calls;
    expect(await fx.send(continuation(turn, [approvalPart(call!, true)]))).toEqual({ status: 200 });
    // the approval waits in the inbox; a different answer for the same call must not pass as it
    const denied = await fx.send(continuation(turn, [approvalPart(call!, false)]));
    expect(denied).toMatchObject({ status: 409, error: { code: 'decision_rejected' } });
    // the same approval again is the duplicate it is: streamed, applied once
    expect(await fx.send(continuation(turn, [approvalPart(call!, true)]))).toEqual({ status: 200 });

    await drain(turn.messageId);
    expect(await fx.counters.get(`exec:${turn.messageId}:${call!.toolCallId}`)).toBe(1);
    const records = await fx.stores.threadRuns.readMessages(turn.chatId);
    const results = records.map((record) => record.message).filter((message) => message.role === 'tool');
    expect(results).toMatchObject([{ toolCallId: call!.toolCallId, outcome: 'succeeded' }]);
  });

  it('one request answering a call twice, differently, is a 400 and applies nothing', async () => {
    const turn = await fx.ask('twice-in-one', 'approve:2 #twice');
    const [first, second] = turn.calls;
    const response = await fx.send(
      continuation(turn, [
        approvalPart(first!, false),
        approvalPart(first!, true),
        approvalPart(second!, true),
      ]),
    );
    expect(response).toMatchObject({ status: 400, error: { code: 'validation_failed' } });
    expect(response.error?.message).toMatch(new RegExp(`${first!.toolCallId}.*answered twice`));
    expect(await fx.stores.inbox.peek(turn.messageId)).toEqual([]);
    expect((await fx.stores.threadRuns.getRun(turn.messageId))?.status).toBe('waiting');
  });
});
