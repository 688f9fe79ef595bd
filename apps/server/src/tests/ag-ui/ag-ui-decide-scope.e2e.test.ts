import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';

const ALICE = 'alice-token-0123456789';
/** May start runs and read, but not decide: it must not be able to approve anything. */
const RANDY = 'randy-token-0123456789';

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({
    AWAKEN_DEMO_DELAY_MS: '2',
    AWAKEN_SHUTDOWN_GRACE_MS: '200',
    AWAKEN_TOKENS: `${ALICE}:acme:alice,${RANDY}:acme:randy:run+read`,
  });
});
afterAll(async () => {
  await app?.stop();
});

describe('AG-UI resume[] needs the decide scope', () => {
  it('a token without decide cannot approve an interrupt through resume[]; nothing is applied', async () => {
    const started = await fetch(`${app.url}/v1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ALICE}` },
      body: JSON.stringify({ agentId: 'demo', input: 'delete /tmp/agui.txt' }),
    });
    const { events } = await readSse(started);
    const ticketId: string = events.find((event) => event.type === 'tool_call_suspended')?.ticket.suspension
      .id;
    const runId = started.headers.get('x-run-id') ?? '';
    const threadId = started.headers.get('x-thread-id') ?? '';
    const response = await fetch(`${app.url}/v1/ag-ui/agents/demo/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${RANDY}` },
      body: JSON.stringify({
        threadId,
        runId,
        state: {},
        messages: [],
        tools: [],
        context: [],
        forwardedProps: {},
        resume: [{ interruptId: ticketId, status: 'resolved', payload: { approved: true } }],
      }),
    });
    const text = await response.text();
    expect(response.status === 403 || text.includes('forbidden_scope'), text.slice(0, 300)).toBe(true);
    const decisions = await api(app.url, `/v1/runs/${runId}/decisions`, { token: ALICE });
    expect(decisions.body.decisions).toEqual([]);
    expect((await api(app.url, `/v1/runs/${runId}`, { token: ALICE })).body.status).toBe('waiting');
  });
});
