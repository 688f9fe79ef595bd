import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AppProcess, startAppProcess } from '../test-support/app-process';
import { createChatClient, flakyFetch, lastText, toolParts } from '../test-support/chat-client';
import { wireProblems } from '../test-support/wire-check';

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
