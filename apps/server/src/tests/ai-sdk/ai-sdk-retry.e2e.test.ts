import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AppProcess, api, startAppProcess } from '../../../test-support/app-process';
import { createChatClient, lastText, toolParts } from '../../../test-support/chat-client';
import { retryingFetch, threadTally } from '../../../test-support/retrying-fetch';
import { wireProblems } from '../../../test-support/wire-check';

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({ AWAKEN_DEMO_DELAY_MS: '5' });
});
afterEach(async () => {
  expect(await wireProblems()).toEqual([]);
});
afterAll(async () => {
  await app?.stop();
});

/** A chat request as `DefaultChatTransport` sends it for a new user message. */
const submit = (chatId: string, text: string, id = 'u1') => ({
  id: chatId,
  trigger: 'submit-message',
  messages: [{ id, role: 'user', parts: [{ type: 'text', text }] }],
});

async function post(body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${app.url}/v1/ai-sdk/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** The text of a UI message stream: its text deltas joined. */
function textOf(stream: string): string {
  return stream
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: {'))
    .map((frame) => JSON.parse(frame.slice(6)))
    .flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : []))
    .join('');
}

describe('useChat: the same message sent again (same chat, message id and text) is one run', () => {
  it('a request whose answer was lost, sent again: the chat shows the answer; send_invoice ran once', async () => {
    const retrying = retryingFetch();
    const { chat, errors } = createChatClient({
      url: app.url,
      id: `chat-${randomUUID()}`,
      fetch: retrying.fetch,
    });
    retrying.retryNext();
    await chat.sendMessage({ text: 'send invoice 94' });
    expect(retrying.retries()).toBe(1);
    expect(errors).toEqual([]);
    expect(lastText(chat)).toBe('Done: invoice 94 is sent.');
    expect(await threadTally(app.url, chat.id)).toEqual({ runs: ['done'], invoices: 1 });
  });

  it('sent again while its run waits for an approval: the approval request again, not a 409; approving works', async () => {
    const retrying = retryingFetch();
    const { chat, errors } = createChatClient({
      url: app.url,
      id: `chat-${randomUUID()}`,
      fetch: retrying.fetch,
    });
    await chat.sendMessage({ text: 'delete /tmp/chat-retry.txt' });
    const asked = toolParts(chat)[0];
    expect(asked).toMatchObject({ state: 'approval-requested' });
    // the same request, re-sent by hand (what a retry after a lost answer posts)
    const again = await post(submit(chat.id, 'delete /tmp/chat-retry.txt', chat.messages[0]!.id));
    expect(again.status).toBe(200);
    expect(again.text).toContain('"type":"tool-approval-request"');
    expect(again.text).toContain(asked?.approval.id);
    expect(await threadTally(app.url, chat.id)).toEqual({ runs: ['waiting'], invoices: 0 });
    await chat.addToolApprovalResponse({ id: asked?.approval.id, approved: true });
    await chat.sendMessage();
    expect(errors).toEqual([]);
    expect(lastText(chat)).toContain('Done: I deleted /tmp/chat-retry.txt.');
  });

  it('the same request twice at once: one run, both streams answer it', async () => {
    const chatId = `chat-${randomUUID()}`;
    const answers = await Promise.all([
      post(submit(chatId, 'send invoice 95')),
      post(submit(chatId, 'send invoice 95')),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(textOf(answer.text)).toBe('Done: invoice 95 is sent.');
    }
    expect(await threadTally(app.url, chatId)).toEqual({ runs: ['done'], invoices: 1 });
  });

  it('an edited message (same id, other text: sendMessage({ messageId })) is a new message: a new run, on a branch', async () => {
    const { chat, errors } = createChatClient({ url: app.url, id: `chat-${randomUUID()}` });
    await chat.sendMessage({ text: 'send invoice 96' });
    const [first] = chat.messages;
    await chat.sendMessage({ text: 'send invoice 97', messageId: first!.id });
    expect(errors).toEqual([]);
    expect(lastText(chat)).toBe('Done: invoice 97 is sent.');
    // the earlier turn stays where it was; the edit ran once, on a branch made before the first message
    expect(await threadTally(app.url, chat.id)).toEqual({ runs: ['done'], invoices: 1 });
    const branches = await api(app.url, `/v1/threads/${chat.id}/branches`);
    expect(branches.body.items).toMatchObject([{ branchOf: { threadId: chat.id, seq: 0 } }]);
    expect(await threadTally(app.url, branches.body.items[0].id)).toEqual({ runs: ['done'], invoices: 1 });
  });
});
