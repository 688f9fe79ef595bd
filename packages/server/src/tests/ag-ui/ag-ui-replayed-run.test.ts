import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_ID, type HttpFixture, createHttpFixture } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

const RUN = `/v1/ag-ui/agents/${AGENT_ID}/run`;

describe('a replayed AG-UI request does not run the agent again', () => {
  it('the same RunAgentInput (same runId, same user message id) posted twice starts one run', async () => {
    const threadId = 'agui-replayed';
    const input = {
      threadId,
      runId: 'agui-replayed-1',
      messages: [{ id: 'u1', role: 'user', content: 'hello' }],
    };
    const first = await fx.call(RUN, { body: input });
    await first.text();
    // a client retry (network blip, double submit) of exactly the same request
    const again = await fx.call(RUN, { body: input });
    await again.text();
    const runs = await fx.json(`/v1/threads/${threadId}/runs`);
    expect(runs.body.items.map((run: { runId: string }) => run.runId)).toEqual(['agui-replayed-1']);
  });
});
