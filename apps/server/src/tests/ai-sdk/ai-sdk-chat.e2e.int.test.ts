import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AppProcess, api, startAppProcess } from '../../../test-support/app-process';
import { createChatClient, flakyFetch, lastText, toolParts } from '../../../test-support/chat-client';
import { wireProblems } from '../../../test-support/wire-check';

let a: AppProcess;
let b: AppProcess;
beforeAll(async () => {
  const env = {
    REDIS_URL: inject('redisUrl'),
    AWAKEN_REDIS_PREFIX: `e2e-chat-${randomUUID().slice(0, 8)}`,
    AWAKEN_DEMO_DELAY_MS: '10',
    AWAKEN_LEASE_MS: '3000',
  };
  [a, b] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
});
// every response a chat client read was a valid v6 UI message stream
afterEach(async () => {
  expect(await wireProblems()).toEqual([]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

/** Sends each request to the process `pick` names, as a load balancer would. */
function balanced(pick: (url: string, method: string) => AppProcess) {
  return flakyFetch({
    route: (url) => {
      const path = url.slice(url.indexOf('/v1/'));
      return `${pick(url, path.endsWith('/stream') ? 'GET' : 'POST').url}${path}`;
    },
  });
}

describe('useChat against two server processes on one Redis', () => {
  it('resumeStream to the other process after the connection to the first dropped', async () => {
    const network = balanced((_, method) => (method === 'GET' ? b : a));
    const { chat, errors } = createChatClient({
      url: a.url,
      id: `chat-${randomUUID()}`,
      fetch: network.fetch,
    });
    network.cutNext(6);
    await chat.sendMessage({ text: 'count to 150' });
    expect(errors).toHaveLength(1);
    const runId = chat.lastMessage!.id;
    await chat.resumeStream();
    expect(errors).toHaveLength(1);
    expect(chat.status).toBe('ready');
    expect(chat.messages.map((message) => message.id)).toEqual([chat.messages[0]!.id, runId]);
    expect(lastText(chat)).toBe(`${Array.from({ length: 150 }, (_, index) => index + 1).join(' ')}.`);
    expect(chat.lastMessage!.metadata).toMatchObject({ awaken: { runId, status: 'done' } });
  });

  it('a run asks on one process; each approval goes to another; the continuations keep the message', async () => {
    let turn = 0;
    const network = balanced(() => (turn++ % 2 === 0 ? a : b));
    const { chat, errors } = createChatClient({
      url: a.url,
      id: `chat-${randomUUID()}`,
      fetch: network.fetch,
    });
    await chat.sendMessage({ text: 'delete /tmp/x.txt and /tmp/y.txt' });
    const messageId = chat.lastMessage!.id;
    const [x, y] = toolParts(chat);
    await chat.addToolApprovalResponse({ id: String(x?.approval.id), approved: true });
    await chat.sendMessage();
    await chat.addToolApprovalResponse({ id: String(y?.approval.id), approved: true });
    await chat.sendMessage();
    expect(errors).toEqual([]);
    expect(turn).toBe(3);
    expect(chat.messages.map((message) => message.id)).toEqual([chat.messages[0]!.id, messageId]);
    expect(toolParts(chat).map((part) => part.state)).toEqual(['output-available', 'output-available']);
    expect(lastText(chat)).toMatch(/Done: I deleted \/tmp\/x.txt\. Done: I deleted \/tmp\/y.txt\./);
  });
});

describe('two tabs of one chat answering at once, each on its own process', () => {
  /** The chat asked on `a`, and a second tab of it (the same history) that talks to `b`. */
  async function twoTabs(text: string) {
    const id = `chat-${randomUUID()}`;
    const first = createChatClient({ url: a.url, id });
    await first.chat.sendMessage({ text });
    const second = createChatClient({ url: b.url, id, messages: structuredClone(first.chat.messages) });
    return { first, second };
  }

  async function toolResults(chatId: string) {
    const { body } = await api(a.url, `/v1/threads/${chatId}/messages?limit=1000`);
    return body.items.map((item: any) => item.message).filter((message: any) => message.role === 'tool');
  }

  it('the same approval at once: both tabs end with the result, the tool ran once', async () => {
    const { first, second } = await twoTabs('delete /tmp/same.txt');
    const [asked] = toolParts(first.chat);
    for (const tab of [first, second])
      await tab.chat.addToolApprovalResponse({ id: String(asked?.approval.id), approved: true });
    await Promise.all([first.chat.sendMessage(), second.chat.sendMessage()]);
    const outcomes = [first, second].map((tab) => tab.errors.map((error) => error.message));
    // a tab whose request came after the run moved on is told so (409); at least one streams it
    expect(outcomes.filter((errors) => errors.length === 0).length).toBeGreaterThanOrEqual(1);
    for (const errors of outcomes)
      expect(errors).toEqual(errors.length ? [expect.stringMatching(/"code":"conflict"/)] : []);
    expect(await toolResults(first.chat.id)).toMatchObject([
      { toolCallId: asked?.toolCallId, outcome: 'succeeded' },
    ]);
  });

  it('an approval and a denial at once: one is applied, the other refused, and what ran matches the one applied', async () => {
    const { first, second } = await twoTabs('delete /tmp/contested.txt');
    const [asked] = toolParts(first.chat);
    await first.chat.addToolApprovalResponse({ id: String(asked?.approval.id), approved: true });
    await second.chat.addToolApprovalResponse({ id: String(asked?.approval.id), approved: false });
    await Promise.all([first.chat.sendMessage(), second.chat.sendMessage()]);
    const applied = [first, second].filter((tab) => tab.errors.length === 0);
    const refused = [first, second].filter((tab) => tab.errors.length > 0);
    expect([applied.length, refused.length]).toEqual([1, 1]);
    expect(refused[0]!.errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/"code":"(conflict|decision_rejected|validation_failed)"/),
    ]);
    const winner = applied[0] === first ? 'succeeded' : 'cancelled';
    expect(await toolResults(first.chat.id)).toMatchObject([
      { toolCallId: asked?.toolCallId, outcome: winner },
    ]);
    expect(toolParts(applied[0]!.chat)).toMatchObject([
      { state: winner === 'succeeded' ? 'output-available' : 'output-denied' },
    ]);
  });
});
