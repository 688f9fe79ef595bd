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

describe('A2A answers need the decide scope', () => {
  it('a token without decide cannot approve a waiting ticket through message/send; nothing is applied', async () => {
    const started = await fetch(`${app.url}/v1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ALICE}` },
      body: JSON.stringify({ agentId: 'demo', input: 'delete /tmp/secret.txt' }),
    });
    const { events } = await readSse(started);
    const ticketId: string = events.find((event) => event.type === 'tool_call_suspended')?.ticket.suspension
      .id;
    const runId = started.headers.get('x-run-id') ?? '';
    // the REST route refuses randy
    const rest = await api(app.url, `/v1/runs/${runId}/decision`, {
      token: RANDY,
      body: { ticketId, decisionId: 'r1', result: { approved: true } },
    });
    expect(rest.status).toBe(403);
    // … and so must the A2A continuation of the same task
    const response = await fetch(`${app.url}/v1/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${RANDY}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            messageId: 'm-approve',
            role: 'user',
            taskId: runId,
            parts: [{ kind: 'data', data: { approved: true, approvalId: ticketId } }],
          },
        },
      }),
    });
    const text = await response.text();
    const refused = response.status === 403 || JSON.parse(text).error !== undefined;
    expect(refused, text.slice(0, 300)).toBe(true);
    const decisions = await api(app.url, `/v1/runs/${runId}/decisions`, { token: ALICE });
    expect(decisions.body.decisions).toEqual([]);
    expect((await api(app.url, `/v1/runs/${runId}`, { token: ALICE })).body.status).toBe('waiting');
  });
});
