import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_ID, type HttpFixture, createHttpFixture } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

/** The AG-UI events of a response (its SSE `data:` lines). */
async function events(response: Response): Promise<Array<Record<string, any>>> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice(6)));
}

describe('the agent of an AG-UI path is checked on every route, not only for a new message', () => {
  it('an unknown agent id neither resumes, reconnects to nor stops a waiting run of another agent (404)', async () => {
    const threadId = 'agui-agent-path';
    const asked = await events(
      await fx.call(`/v1/ag-ui/agents/${AGENT_ID}/run`, {
        body: {
          threadId,
          runId: 'agui-path-1',
          messages: [{ id: 'u1', role: 'user', content: 'approve:1 #path' }],
        },
      }),
    );
    const finished = asked.at(-1);
    expect(finished).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
    const [interrupt] = finished?.outcome?.interrupts ?? [];
    const resume = [{ interruptId: interrupt.id, status: 'resolved', payload: { approved: true } }];

    const body = { threadId, runId: 'x', messages: [], resume };
    for (const route of ['run', 'connect', 'stop']) {
      const response = await fx.call(`/v1/ag-ui/agents/no-such-agent/${route}`, { body });
      const text = await response.text();
      expect({ route, status: response.status, text: text.slice(0, 200) }).toMatchObject({
        route,
        status: 404,
      });
    }
    // the run is as it was: waiting, its call never ran
    const run = await fx.json('/v1/runs/agui-path-1');
    expect(run.body.status).toBe('waiting');
    expect(await fx.counters.get(`exec:agui-path-1:${interrupt.toolCallId}`)).toBe(0);
  });
});
