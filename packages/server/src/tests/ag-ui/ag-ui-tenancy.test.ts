import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_ID, type HttpFixture, TOKENS, createHttpFixture } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

const RUN = `/v1/ag-ui/agents/${AGENT_ID}/run`;

/** The AG-UI events of a response (its SSE `data:` lines). */
async function events(response: Response): Promise<Array<Record<string, any>>> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice(6)));
}

describe('the AG-UI routes of one tenant are out of reach of another', () => {
  it("another tenant can neither resume, reconnect to nor stop a tenant's waiting run; no token is a 401", async () => {
    const threadId = 'agui-tenancy';
    const asked = await events(
      await fx.call(RUN, {
        body: {
          threadId,
          runId: 'agui-run-1',
          messages: [{ id: 'u1', role: 'user', content: 'approve:1 #agui' }],
        },
      }),
    );
    const finished = asked.at(-1);
    expect(finished).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
    const [interrupt] = finished?.outcome?.interrupts ?? [];
    const resume = [{ interruptId: interrupt.id, status: 'resolved', payload: { approved: true } }];

    const globex = { token: TOKENS.globex };
    const forged = await events(
      await fx.call(RUN, { body: { threadId, runId: 'x', messages: [], resume }, ...globex }),
    );
    expect(forged.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'unknown_interrupt' });
    const connect = await events(
      await fx.call(`/v1/ag-ui/agents/${AGENT_ID}/connect`, { body: { threadId }, ...globex }),
    );
    expect(connect).toEqual([]);
    const stop = await fx.json(`/v1/ag-ui/agents/${AGENT_ID}/stop`, { body: { threadId }, ...globex });
    expect({ status: stop.status, code: stop.body.error?.code }).toEqual({ status: 404, code: 'not_found' });

    for (const token of [null, 'not-a-configured-token-at-all']) {
      for (const path of [RUN, `/v1/ag-ui/agents/${AGENT_ID}/connect`, `/v1/ag-ui/agents/${AGENT_ID}/stop`]) {
        const response = await fx.call(path, { body: { threadId, runId: 'y', messages: [], resume }, token });
        expect({ path, status: response.status }).toEqual({ path, status: 401 });
      }
    }
    // acme's run is as it was: waiting, its call never ran
    const run = await fx.json('/v1/runs/agui-run-1');
    expect(run.body.status).toBe('waiting');
    expect(await fx.counters.get(`exec:agui-run-1:${interrupt.toolCallId}`)).toBe(0);
  });
});
