import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';

const ALICE = 'alice-token-0123456789';

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({
    AWAKEN_DEMO_DELAY_MS: '2',
    AWAKEN_SHUTDOWN_GRACE_MS: '200',
    AWAKEN_TOKENS: `${ALICE}:acme:alice`,
  });
});
afterAll(async () => {
  await app?.stop();
});

async function waitingRun(input: string) {
  const response = await fetch(`${app.url}/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ALICE}` },
    body: JSON.stringify({ agentId: 'demo', input }),
  });
  const { events } = await readSse(response);
  const ticketId: string = events.find((event) => event.type === 'tool_call_suspended')?.ticket.suspension.id;
  return { runId: response.headers.get('x-run-id') ?? '', ticketId };
}

describe('four-eyes through approval links', () => {
  // The run's starter may not approve her own four-eyes ticket. A link naming her is refused at
  // issue — but the approver is a free string, so the same name padded with whitespace slips past
  // the exact comparison and the starter approves her own payroll deletion through the link.
  it('a link whose approver is the starter padded with whitespace is refused, and nothing is applied', async () => {
    const { runId, ticketId } = await waitingRun('delete /srv/payroll.csv');
    for (const approver of ['alice ', ' alice', 'alice\n', '\talice']) {
      const issued = await api(app.url, `/v1/runs/${runId}/tickets/${encodeURIComponent(ticketId)}/links`, {
        token: ALICE,
        body: { approver },
      });
      expect([403, 422], `approver ${JSON.stringify(approver)}`).toContain(issued.status);
    }
    const decisions = await api(app.url, `/v1/runs/${runId}/decisions`, { token: ALICE });
    expect(decisions.body.decisions).toEqual([]);
  });
});
