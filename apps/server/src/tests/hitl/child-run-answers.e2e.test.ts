import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';

/**
 * A sub-agent's child run is answered through its top-level run, never directly: there the answer is
 * judged against the askers of the whole run (four-eyes included) and forwarded to the child. Sent
 * to the child run, its thread, or a link of it, it is refused (409 naming the top-level run), so no
 * child goes on behind its parent's back and no parent is left waiting on a stale question.
 */
const ALICE = 'alice-token-0123456789';
const BOB = 'bob-token-0123456789ab';
const CAROL = 'carol-token-0123456789';

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({
    AWAKEN_DEMO_DELAY_MS: '20',
    AWAKEN_SHUTDOWN_GRACE_MS: '200',
    AWAKEN_TOKENS: `${ALICE}:acme:alice,${BOB}:acme:bob,${CAROL}:acme:carol`,
    AWAKEN_LINK_SECRET: 'a-link-secret-of-at-least-32-characters',
  });
});
afterAll(async () => {
  await app?.stop();
});

const WAIT = { timeout: 15_000, interval: 25 };
const runOf = async (runId: string) => (await api(app.url, `/v1/runs/${runId}`, { token: ALICE })).body;

/** The parent run once it waits on its sub-agent's question: the ticket and the child run. */
async function nestedTicket(runId: string, path: string) {
  return vi.waitFor(async () => {
    const run = await runOf(runId);
    expect(run.status).toBe('waiting');
    const ticket = run.waiting.tickets[0];
    expect(ticket.nested.arguments).toEqual({ path });
    return ticket as { ticketId: string; nested: { runId: string; ticketId: string } };
  }, WAIT);
}

function expectRefusedToChild(response: { status: number; body: any }, childRunId: string, runId: string) {
  expect(response.status).toBe(409);
  expect(response.body.error.code).toBe('conflict');
  expect(response.body.error.message).toContain(`top-level run ${runId}`);
  expect(response.body.error.details).toMatchObject({ runId: childRunId, topLevelRunId: runId });
}

describe("a sub-agent's child run is answered through its top-level run only", () => {
  it('REST decisions (run and thread), input and links addressed to the child are refused; the parent ticket still answers it', async () => {
    const started = await fetch(`${app.url}/v1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ALICE}` },
      body: JSON.stringify({ agentId: 'demo', input: 'ask the janitor to delete /tmp/child-direct.txt' }),
    });
    await readSse(started);
    const runId = started.headers.get('x-run-id') ?? '';
    const ticket = await nestedTicket(runId, '/tmp/child-direct.txt');
    const child = await runOf(ticket.nested.runId);
    const answer = { ticketId: ticket.nested.ticketId, result: { approved: false } };
    const refused = [
      await api(app.url, `/v1/runs/${child.runId}/decision`, { token: BOB, body: answer }),
      await api(app.url, `/v1/runs/${child.runId}/decisions`, { token: BOB, body: { decisions: [answer] } }),
      await api(app.url, `/v1/threads/${child.threadId}/decision`, { token: BOB, body: answer }),
      await api(app.url, `/v1/threads/${child.threadId}/inject`, {
        token: BOB,
        body: { mode: 'resume', input: 'never mind' },
      }),
      await api(
        app.url,
        `/v1/runs/${child.runId}/tickets/${encodeURIComponent(ticket.nested.ticketId)}/links`,
        {
          token: BOB,
          body: {},
        },
      ),
    ];
    for (const response of refused) expectRefusedToChild(response, child.runId, runId);
    expect((await runOf(child.runId)).status).toBe('waiting');
    const approved = await api(app.url, `/v1/runs/${runId}/decision`, {
      token: BOB,
      body: { ticketId: ticket.ticketId, result: { approved: true } },
    });
    expect(approved.status).toBe(200);
    const done = await vi.waitFor(async () => {
      const run = await runOf(runId);
      expect(run.status).toBe('done');
      return run;
    }, WAIT);
    expect(done.response).toBe('The janitor deleted /tmp/child-direct.txt.');
  });

  it("four-eyes: Alice, who steered Bob's run into a guarded deletion, cannot approve it through the child either", async () => {
    const started = await fetch(`${app.url}/v1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BOB}` },
      body: JSON.stringify({ agentId: 'demo', input: 'count to 200' }),
    });
    const runId = started.headers.get('x-run-id') ?? '';
    const threadId = started.headers.get('x-thread-id') ?? '';
    const steered = await api(app.url, `/v1/threads/${threadId}/inject`, {
      token: ALICE,
      body: { mode: 'steer', input: 'ask the janitor to delete /srv/steered-child.csv' },
    });
    expect(steered.status).toBe(202);
    await readSse(started);
    const ticket = await nestedTicket(runId, '/srv/steered-child.csv');
    const self = await api(app.url, `/v1/runs/${runId}/decision`, {
      token: ALICE,
      body: { ticketId: ticket.ticketId, result: { approved: true } },
    });
    expect(self.status).toBe(403);
    const direct = await api(app.url, `/v1/runs/${ticket.nested.runId}/decision`, {
      token: ALICE,
      body: { ticketId: ticket.nested.ticketId, result: { approved: true } },
    });
    expectRefusedToChild(direct, ticket.nested.runId, runId);
    expect((await runOf(ticket.nested.runId)).status).toBe('waiting');
    const carol = await api(app.url, `/v1/runs/${runId}/decision`, {
      token: CAROL,
      body: { ticketId: ticket.ticketId, result: { approved: true } },
    });
    expect(carol.status).toBe(200);
    await vi.waitFor(async () => expect((await runOf(runId)).status).toBe('done'), WAIT);
  });

  it("four-eyes: Alice edits the janitor's plain ask on Bob's run into /srv; her approval of the question that follows is refused at the parent (403), Carol's runs it", async () => {
    const started = await fetch(`${app.url}/v1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BOB}` },
      body: JSON.stringify({ agentId: 'demo', input: 'ask the janitor to delete /tmp/bob-nested.txt' }),
    });
    await readSse(started);
    const runId = started.headers.get('x-run-id') ?? '';
    const first = await nestedTicket(runId, '/tmp/bob-nested.txt');
    const edit = await api(app.url, `/v1/runs/${runId}/decision`, {
      token: ALICE,
      body: {
        ticketId: first.ticketId,
        result: { approved: true, editedArguments: { path: '/srv/bob-nested.csv' } },
      },
    });
    expect(edit.status).toBe(200);
    const again = await nestedTicket(runId, '/srv/bob-nested.csv');
    expect(again.ticketId).not.toBe(first.ticketId);
    const self = await api(app.url, `/v1/runs/${runId}/decision`, {
      token: ALICE,
      body: { ticketId: again.ticketId, result: { approved: true } },
    });
    expect(self.status).toBe(403);
    expect(self.body.error.code).toBe('self_approval_forbidden');
    const carol = await api(app.url, `/v1/runs/${runId}/decision`, {
      token: CAROL,
      body: { ticketId: again.ticketId, result: { approved: true } },
    });
    expect(carol.status).toBe(200);
    const done = await vi.waitFor(async () => {
      const run = await runOf(runId);
      expect(run.status).toBe('done');
      return run;
    }, WAIT);
    expect(done.response).toBe('The janitor deleted /srv/bob-nested.csv.');
    const audit = (await api(app.url, `/v1/runs/${runId}/decisions`, { token: ALICE })).body.decisions;
    // the parent's audit holds no applied approval of Alice's for the guarded call
    expect(audit.map((record: { decidedBy: string }) => record.decidedBy)).toEqual(['alice', 'carol']);
  });
});
