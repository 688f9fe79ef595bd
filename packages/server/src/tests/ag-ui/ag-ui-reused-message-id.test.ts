import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_ID, type HttpFixture, createHttpFixture } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

const RUN = `/v1/ag-ui/agents/${AGENT_ID}/run`;

/**
 * A retry is the same request: the same thread, `runId`, user message id **and content**. A message id
 * reused for other content is a caller's mistake (as A2A's `messageId`): 422 naming the message's id,
 * nothing started — not a replay of the first message's run that silently drops the new text.
 */
describe('an AG-UI user message id reused for another message', () => {
  it('is refused 422 naming messages[0].id; the first run stands alone; the same content again replays', async () => {
    const threadId = 'agui-reused-id';
    const first = await fx.call(RUN, {
      body: { threadId, runId: 'agui-reused-1', messages: [{ id: 'u1', role: 'user', content: 'hello' }] },
    });
    await first.text();
    const other = await fx.json(RUN, {
      body: {
        threadId,
        runId: 'agui-reused-1',
        messages: [{ id: 'u1', role: 'user', content: 'approve:1' }],
      },
    });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('validation_failed');
    expect(other.body.error.message).toContain('messages[0].id');
    const same = await fx.call(RUN, {
      body: { threadId, runId: 'agui-reused-1', messages: [{ id: 'u1', role: 'user', content: 'hello' }] },
    });
    expect(same.status).toBe(200);
    await same.text();
    const runs = await fx.json(`/v1/threads/${threadId}/runs`);
    expect(runs.body.items.map((run: { runId: string }) => run.runId)).toEqual(['agui-reused-1']);
  });
});
