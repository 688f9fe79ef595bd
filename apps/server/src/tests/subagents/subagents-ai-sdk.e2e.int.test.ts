import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AppProcess, api, startAppProcess } from '../../../test-support/app-process';
import { createChatClient, lastText, toolParts } from '../../../test-support/chat-client';
import { wireProblems } from '../../../test-support/wire-check';
import { JANITOR_PROMPT, PARALLEL_PROMPT, deletions, inboxItems, runView } from './subagent-helpers';

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({
    REDIS_URL: inject('redisUrl'),
    AWAKEN_REDIS_PREFIX: `e2e-sub-${randomUUID().slice(0, 8)}`,
    AWAKEN_DEMO_DELAY_MS: '0',
  });
});
// every response the chat client read was a valid v6 UI message stream
afterEach(async () => {
  expect(await wireProblems()).toEqual([]);
});
afterAll(async () => {
  await app?.stop();
});

function chatClient() {
  return createChatClient({ url: app.url, id: `chat-${randomUUID()}` });
}

describe('a sub-agent asks, through useChat (ai AbstractChat) on Redis', () => {
  it("the approval is the delegate call's, naming the inner tool and path; approved, the child deletes once and the parent answers", async () => {
    const { chat, errors } = chatClient();
    await chat.sendMessage({ text: JANITOR_PROMPT });
    expect(errors).toEqual([]);
    const [part] = toolParts(chat);
    expect(part).toMatchObject({
      type: 'tool-janitor',
      state: 'approval-requested',
      input: { task: 'delete /tmp/report.txt' },
      approval: {
        id: expect.stringMatching(/^sub:/),
        descriptor: {
          toolName: 'delete_file',
          input: { path: '/tmp/report.txt' },
          agentPath: ['demo', 'janitor'],
          message: expect.stringMatching(/^janitor › delete_file: /),
        },
      },
      // the child's progress, as the call's preliminary output
      output: {
        subagent: {
          agentId: 'janitor',
          status: 'waiting',
          question: { toolName: 'delete_file', input: { path: '/tmp/report.txt' } },
        },
      },
    });
    const runId = chat.lastMessage!.id;
    const childRunId = part!.output.subagent.runId;
    expect(await runView(app, childRunId)).toMatchObject({
      status: 'waiting',
      origin: 'internal',
      parentRunId: runId,
      parentCallId: part!.toolCallId,
      agentPath: ['demo', 'janitor'],
    });

    await chat.addToolApprovalResponse({ id: String(part!.approval.id), approved: true });
    await chat.sendMessage();
    expect(errors).toEqual([]);
    expect(chat.messages.map((message) => message.id)).toEqual([chat.messages[0]!.id, runId]);
    expect(toolParts(chat)).toMatchObject([
      { toolCallId: part!.toolCallId, state: 'output-available', output: 'Done: I deleted /tmp/report.txt.' },
    ]);
    expect(toolParts(chat)[0]?.preliminary).not.toBe(true);
    expect(lastText(chat)).toBe('I will ask the janitor. The janitor deleted /tmp/report.txt.');
    expect(await deletions(app, childRunId)).toEqual(['succeeded']);
    expect(await runView(app, childRunId)).toMatchObject({ status: 'done' });
  });

  it('denied, the child never deletes, ends, and the parent says so: nothing is left waiting', async () => {
    const { chat, errors } = chatClient();
    await chat.sendMessage({ text: JANITOR_PROMPT });
    const [part] = toolParts(chat);
    const childRunId = part!.output.subagent.runId;
    await chat.addToolApprovalResponse({ id: String(part!.approval.id), approved: false, reason: 'keep it' });
    await chat.sendMessage();
    expect(errors).toEqual([]);
    expect(lastText(chat)).toBe(
      'I will ask the janitor. The janitor did not delete /tmp/report.txt: "I did not run delete_file: keep it."',
    );
    expect(await deletions(app, childRunId)).toEqual(['cancelled']);
    expect((await runView(app, childRunId)).status).toBe('done');
    expect((await runView(app, chat.lastMessage!.id)).status).toBe('done');
    const waiting = (await inboxItems(app)).map((item) => item.runId);
    expect(waiting).not.toContain(childRunId);
    expect(waiting).not.toContain(chat.lastMessage!.id);
  });

  it('two sub-agents in parallel: two approvals at once, answered one at a time in reverse order', async () => {
    const { chat, errors } = chatClient();
    await chat.sendMessage({ text: PARALLEL_PROMPT });
    const [janitor, archivist] = toolParts(chat);
    expect([janitor, archivist].map((part) => [part?.type, part?.state, part?.approval.descriptor])).toEqual([
      [
        'tool-janitor',
        'approval-requested',
        expect.objectContaining({
          toolName: 'delete_file',
          input: { path: '/tmp/a.txt' },
          agentPath: ['demo', 'janitor'],
        }),
      ],
      [
        'tool-archivist',
        'approval-requested',
        expect.objectContaining({
          toolName: 'delete_file',
          input: { path: '/tmp/b.txt' },
          agentPath: ['demo', 'archivist'],
        }),
      ],
    ]);
    await chat.addToolApprovalResponse({ id: String(archivist!.approval.id), approved: true });
    await chat.sendMessage();
    expect(toolParts(chat).map((part) => part.state)).toEqual(['approval-requested', 'output-available']);
    await chat.addToolApprovalResponse({ id: String(janitor!.approval.id), approved: true });
    await chat.sendMessage();
    expect(errors).toEqual([]);
    expect(lastText(chat)).toBe(
      'I will ask the janitor and the archivist. The janitor deleted /tmp/a.txt. The archivist deleted /tmp/b.txt.',
    );
    expect(await deletions(app, janitor!.output.subagent.runId)).toEqual(['succeeded']);
    expect(await deletions(app, archivist!.output.subagent.runId)).toEqual(['succeeded']);
  });
});

describe('the native API and the inbox show the nested question (curl)', () => {
  it('the run view and the inbox name the inner call and the agent path; the child is not listed twice; a REST decision reaches it', async () => {
    const threadId = `native-${randomUUID()}`;
    const started = await api(app.url, '/v1/runs', {
      body: { agentId: 'demo', threadId, input: JANITOR_PROMPT, stream: false },
    });
    expect(started.status).toBe(202);
    const runId = started.body.runId;
    let run: Record<string, any> = {};
    await expect
      .poll(
        async () => {
          run = await runView(app, runId);
          return run.status;
        },
        { timeout: 15_000 },
      )
      .toBe('waiting');
    const [ticket] = run.waiting.tickets;
    expect(ticket).toMatchObject({
      toolName: 'janitor',
      nested: {
        toolName: 'delete_file',
        arguments: { path: '/tmp/report.txt' },
        agentPath: ['demo', 'janitor'],
        runId: expect.stringMatching(/^sub_/),
      },
    });
    const items = await inboxItems(app);
    expect(items.filter((item) => item.runId === runId)).toMatchObject([
      {
        agentId: 'demo',
        tickets: [{ ticketId: ticket.ticketId, nested: { agentPath: ['demo', 'janitor'] } }],
      },
    ]);
    expect(items.map((item) => item.runId)).not.toContain(ticket.nested.runId);

    const decided = await api(app.url, `/v1/runs/${runId}/decision`, {
      body: { ticketId: ticket.ticketId, decisionId: `d-${randomUUID()}`, result: { approved: true } },
    });
    expect(decided.body.receipts).toMatchObject([{ status: 'accepted' }]);
    await expect
      .poll(
        async () => {
          run = await runView(app, runId);
          return run.status;
        },
        { timeout: 15_000 },
      )
      .toBe('done');
    expect(await deletions(app, ticket.nested.runId)).toEqual(['succeeded']);
  });
});
