import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';
import { createChatClient, toolParts } from '../../../test-support/chat-client';

/**
 * Four-eyes (`delete_file(/srv/**)` requires a distinct approver in the demo agent) means the person
 * who asked for the action is not the one who approves it — whichever way they asked: by starting
 * the run, by injecting input in any mode, by steering or resuming someone else's run, by editing a
 * call's arguments while approving it, or by issuing an approval link for someone else.
 */
const ALICE = 'alice-token-0123456789';
const BOB = 'bob-token-0123456789ab';
const CAROL = 'carol-token-0123456789';
const SECRET = 'a-link-secret-of-at-least-32-characters';

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({
    AWAKEN_DEMO_DELAY_MS: '5',
    AWAKEN_SHUTDOWN_GRACE_MS: '200',
    AWAKEN_TOKENS: `${ALICE}:acme:alice,${BOB}:acme:bob,${CAROL}:acme:carol`,
    AWAKEN_LINK_SECRET: SECRET,
  });
});
afterAll(async () => {
  await app?.stop();
});

const WAIT = { timeout: 15_000, interval: 25 };
const runOf = async (runId: string) => (await api(app.url, `/v1/runs/${runId}`, { token: ALICE })).body;
const auditOf = async (runId: string) =>
  (await api(app.url, `/v1/runs/${runId}/decisions`, { token: ALICE })).body.decisions;

/** The run once it waits, with its one open ticket. */
async function waitingTicket(runId: string, path?: string) {
  return vi.waitFor(async () => {
    const run = await runOf(runId);
    expect(run.status).toBe('waiting');
    const ticket = run.waiting.tickets[0];
    if (path !== undefined) expect(ticket.arguments).toEqual({ path });
    return { run, ticket: ticket as { ticketId: string; toolCallId: string; arguments: unknown } };
  }, WAIT);
}

async function started(token: string, input: string) {
  const response = await fetch(`${app.url}/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ agentId: 'demo', input }),
  });
  await readSse(response);
  return {
    runId: response.headers.get('x-run-id') ?? '',
    threadId: response.headers.get('x-thread-id') ?? '',
  };
}

const decide = (token: string, runId: string, ticketId: string, result: unknown = { approved: true }) =>
  api(app.url, `/v1/runs/${runId}/decision`, { token, body: { ticketId, result } });

/** Alice's approval is refused (403) and nothing ran; Bob's (or `other`'s) runs the call as edited. */
async function onlyAnotherPersonApproves(runId: string, path: string, refused: string[], other = BOB) {
  const { ticket } = await waitingTicket(runId, path);
  for (const token of refused) {
    const self = await decide(token, runId, ticket.ticketId);
    expect(self.status).toBe(403);
    expect(self.body.error.code).toBe('self_approval_forbidden');
  }
  expect((await runOf(runId)).status).toBe('waiting');
  expect((await decide(other, runId, ticket.ticketId)).status).toBe(200);
  const done = await vi.waitFor(async () => {
    const run = await runOf(runId);
    expect(run.status).toBe('done');
    return run;
  }, WAIT);
  expect(done.response).toBe(`Done: I deleted ${path}.`);
}

describe('an edit that moves a call under four-eyes needs a second person', () => {
  it.each(['/srv/edited.csv', '/tmp/../srv/edited.csv'])(
    'REST: Alice approves her plain ask with an edit into %s: nothing runs, the edited call asks again; only Bob may approve it',
    async (path) => {
      const { runId } = await started(ALICE, 'delete /tmp/harmless.txt');
      const { ticket } = await waitingTicket(runId, '/tmp/harmless.txt');
      const edited = await decide(ALICE, runId, ticket.ticketId, {
        approved: true,
        editedArguments: { path },
      });
      expect(edited.status).toBe(200);
      const again = await waitingTicket(runId, path);
      expect(again.ticket.ticketId).not.toBe(ticket.ticketId);
      await onlyAnotherPersonApproves(runId, path, [ALICE]);
      expect(await auditOf(runId)).toMatchObject([
        {
          decidedBy: 'alice',
          shown: { arguments: { path: '/tmp/harmless.txt' } },
          answer: { editedArguments: { path } },
        },
        { decidedBy: 'bob', shown: { arguments: { path } } },
      ]);
    },
  );

  it('AG-UI: an edit through resume[].payload.editedArgs asks again; her approval through resume[] is refused', async () => {
    const { runId, threadId } = await started(ALICE, 'delete /tmp/agui-harmless.txt');
    const { ticket } = await waitingTicket(runId);
    const resume = (token: string, interruptId: string, payload: unknown) =>
      fetch(`${app.url}/v1/ag-ui/agents/demo/run`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          accept: 'text/event-stream',
        },
        body: JSON.stringify({
          threadId,
          runId: randomUUID(),
          state: {},
          messages: [],
          tools: [],
          context: [],
          forwardedProps: {},
          resume: [{ interruptId, status: 'resolved', payload }],
        }),
      }).then(async (response) => ({ status: response.status, text: await response.text() }));
    const edited = await resume(ALICE, ticket.ticketId, {
      approved: true,
      editedArgs: { path: '/srv/agui.csv' },
    });
    expect(edited.text).not.toContain('RUN_ERROR');
    const again = await waitingTicket(runId, '/srv/agui.csv');
    const self = await resume(ALICE, again.ticket.ticketId, { approved: true });
    expect(self.text).toContain('self_approval_forbidden');
    await onlyAnotherPersonApproves(runId, '/srv/agui.csv', [ALICE]);
  });

  it('A2A: an edit through {approved, editedArguments} asks again; her approval as an A2A message is refused', async () => {
    const { runId } = await started(ALICE, 'delete /tmp/a2a-harmless.txt');
    const { ticket } = await waitingTicket(runId);
    const send = (token: string, data: Record<string, unknown>) =>
      api(app.url, '/v1/a2a', {
        token,
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: {
            message: {
              kind: 'message',
              messageId: randomUUID(),
              role: 'user',
              taskId: runId,
              parts: [{ kind: 'data', data }],
            },
          },
        },
      });
    const edited = await send(ALICE, {
      approvalId: ticket.ticketId,
      approved: true,
      editedArguments: { path: '/srv/a2a.csv' },
    });
    expect(edited.body.error).toBeUndefined();
    const again = await waitingTicket(runId, '/srv/a2a.csv');
    const self = await send(ALICE, { approvalId: again.ticket.ticketId, approved: true });
    expect(JSON.stringify(self.body.error)).toContain('self_approval_forbidden');
    await onlyAnotherPersonApproves(runId, '/srv/a2a.csv', [ALICE]);
  });

  it('AI SDK: the chat shows the edited call asking again, and her approval through the chat is refused (403)', async () => {
    const authorized: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${ALICE}`);
      return fetch(input, { ...init, headers });
    };
    const { chat } = createChatClient({ url: app.url, id: `chat-${randomUUID()}`, fetch: authorized });
    await chat.sendMessage({ text: 'delete /tmp/chat-harmless.txt' });
    const [asked] = toolParts(chat);
    const runId = String(chat.lastMessage?.metadata && (chat.lastMessage.metadata as any).awaken.runId);
    // the chat has no way to edit: she edits from the console (REST); the chat answers what follows
    const edited = await decide(ALICE, runId, String(asked?.approval?.id), {
      approved: true,
      editedArguments: { path: '/srv/chat.csv' },
    });
    expect(edited.status).toBe(200);
    const again = await waitingTicket(runId, '/srv/chat.csv');
    // what useChat sends when she approves the question the run now asks
    const message = structuredClone(chat.lastMessage!);
    const part = message.parts.find((entry) => entry.type === 'tool-delete_file') as any;
    Object.assign(part, {
      state: 'approval-responded',
      input: { path: '/srv/chat.csv' },
      approval: { id: again.ticket.ticketId, approved: true },
    });
    const response = await authorized(`${app.url}/v1/ai-sdk/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: chat.id,
        messages: [...chat.messages.slice(0, -1), message],
        trigger: 'submit-message',
      }),
    });
    expect(response.status).toBe(403);
    expect((await response.json()).error.code).toBe('self_approval_forbidden');
    await onlyAnotherPersonApproves(runId, '/srv/chat.csv', [ALICE]);
  });
});

describe('whoever sends input asks for what follows', () => {
  it.each(['queue', 'interrupt'] as const)(
    'inject %s on her own thread: the new run is hers (context.caller), and she cannot approve its four-eyes call',
    async (mode) => {
      const { threadId } = await started(ALICE, 'weather in Paris');
      const injected = await api(app.url, `/v1/threads/${threadId}/inject`, {
        token: ALICE,
        body: { mode, input: `delete /srv/inject-${mode}.csv`, agentId: 'demo' },
      });
      expect(injected.status).toBe(202);
      const { run } = await waitingTicket(injected.body.runId);
      expect(run.context.caller).toMatchObject({ tenant: 'acme', subject: 'alice' });
      await onlyAnotherPersonApproves(injected.body.runId, `/srv/inject-${mode}.csv`, [ALICE]);
    },
  );

  it('steer: Alice steers the run Bob started; neither of them may approve the four-eyes call that follows', async () => {
    const submitted = await api(app.url, '/v1/mailbox/submit', {
      token: BOB,
      body: { agentId: 'demo', input: 'count to 400' },
    });
    expect(submitted.status).toBe(202);
    const { runId, threadId } = submitted.body;
    await vi.waitFor(async () => expect((await runOf(runId)).status).toBe('running'), WAIT);
    const steered = await api(app.url, `/v1/threads/${threadId}/inject`, {
      token: ALICE,
      body: { mode: 'steer', input: 'delete /srv/steered.csv' },
    });
    expect(steered.status).toBe(202);
    // the input reaches the run (or, if it ended first, the thread's next run, which is hers)
    const target = await vi.waitFor(async () => {
      const runs = (await api(app.url, `/v1/threads/${threadId}/runs`, { token: ALICE })).body.items as any[];
      const waiting = runs.find((run) => run.status === 'waiting');
      expect(waiting).toBeDefined();
      return waiting.runId as string;
    }, WAIT);
    await onlyAnotherPersonApproves(target, '/srv/steered.csv', [ALICE, BOB], CAROL);
  });

  it("resume: Alice resumes Bob's waiting run with new input; neither of them may approve the four-eyes call", async () => {
    const { runId, threadId } = await started(BOB, 'delete /tmp/bobs.txt');
    await waitingTicket(runId, '/tmp/bobs.txt');
    const resumed = await api(app.url, `/v1/threads/${threadId}/inject`, {
      token: ALICE,
      body: { mode: 'resume', input: 'delete /srv/resumed.csv' },
    });
    expect(resumed.status).toBe(202);
    expect(resumed.body.runId).toBe(runId);
    await onlyAnotherPersonApproves(runId, '/srv/resumed.csv', [ALICE, BOB], CAROL);
  });
});

describe('approval links for four-eyes tickets', () => {
  const issue = (token: string, runId: string, ticketId: string, body: Record<string, unknown>) =>
    api(app.url, `/v1/runs/${runId}/tickets/${encodeURIComponent(ticketId)}/links`, { token, body });

  it('an asker cannot issue one, even naming someone else; a link another person issued records both names', async () => {
    const { runId } = await started(ALICE, 'delete /srv/linked.csv');
    const { ticket } = await waitingTicket(runId);
    const own = await issue(ALICE, runId, ticket.ticketId, { approver: 'bob' });
    expect(own.status).toBe(403);
    expect(own.body.error).toMatchObject({ code: 'self_approval_forbidden' });
    expect(own.body.error.message).toContain('issued by someone else');
    const named = await issue(CAROL, runId, ticket.ticketId, { approver: 'alice' });
    expect(named.status).toBe(403);

    const carols = await issue(CAROL, runId, ticket.ticketId, { approver: 'bob' });
    expect(carols.status).toBe(201);
    const clicked = await fetch(carols.body.url, {
      method: 'POST',
      body: new URLSearchParams({ answer: 'approve' }),
    });
    expect(clicked.status).toBe(200);
    await vi.waitFor(async () => expect((await runOf(runId)).status).toBe('done'), WAIT);
    expect(await auditOf(runId)).toMatchObject([{ decidedBy: 'bob', issuedBy: 'carol', channel: 'link' }]);
  });

  it('one who steered a run is an asker for links too', async () => {
    const { runId, threadId } = await started(BOB, 'delete /tmp/bobs-link.txt');
    await waitingTicket(runId, '/tmp/bobs-link.txt');
    await api(app.url, `/v1/threads/${threadId}/inject`, {
      token: ALICE,
      body: { mode: 'resume', input: 'delete /srv/resumed-link.csv' },
    });
    const { ticket } = await waitingTicket(runId, '/srv/resumed-link.csv');
    expect((await issue(ALICE, runId, ticket.ticketId, { approver: 'carol' })).status).toBe(403);
    expect((await issue(CAROL, runId, ticket.ticketId, { approver: 'alice' })).status).toBe(403);
    expect((await issue(CAROL, runId, ticket.ticketId, {})).status).toBe(201);
  });
});
