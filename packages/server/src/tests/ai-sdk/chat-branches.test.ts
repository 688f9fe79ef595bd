import { createMemoryStores } from '@awaken/store-memory';
import {
  AbstractChat,
  type ChatInit,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  type UIMessage,
} from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type BranchFixture,
  ECHO_AGENT,
  createBranchFixture,
  transcriptOf,
} from '../../../test-support/branch-fixture';

/** The state `useChat` keeps, as plain fields (`@ai-sdk/react`'s Chat minus React). */
class PlainState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: UIMessage[] = [];
  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = [...this.messages.slice(0, index), message, ...this.messages.slice(index + 1)];
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

class NodeChat extends AbstractChat<UIMessage> {
  constructor(init: ChatInit<UIMessage>) {
    super({ ...init, state: new PlainState() });
  }
}

const texts = (chat: NodeChat) =>
  chat.messages.map(
    (message) =>
      `${message.role}:${message.parts
        .filter((part) => part.type === 'text')
        .map((part) => part.text)
        .join('')}`,
  );

const lines = (records: Array<{ message: { role: string; content?: string; text?: string } }>) =>
  records.map(({ message }) => `${message.role}:${message.content ?? message.text}`);

describe('regenerate and edit with the real ai client continue on a branch', () => {
  let fx: BranchFixture;
  let chat: NodeChat;
  /** The thread the client continues: the chat id until a `data-awaken-thread` part names a branch. */
  let threadId: string | undefined;
  const announced: Array<{ threadId: string; branchOf: { threadId: string; seq: number } }> = [];
  const errors: Error[] = [];
  const chatId = 'chat-branches';

  beforeEach(async () => {
    fx = await createBranchFixture(createMemoryStores());
    threadId = undefined;
    announced.length = 0;
    errors.length = 0;
    chat = new NodeChat({
      id: chatId,
      transport: new DefaultChatTransport({
        api: `http://awaken.test/v1/ai-sdk/agents/${ECHO_AGENT}/chat`,
        fetch: ((url: string, init: RequestInit) => fx.http.app.request(url, init)) as typeof fetch,
        body: () => (threadId === undefined ? {} : { threadId }),
      }),
      onData: (part) => {
        if (part.type !== 'data-awaken-thread') return;
        const data = part.data as (typeof announced)[number];
        announced.push(data);
        threadId = data.threadId;
      },
      onError: (error) => errors.push(error),
    });
  });
  afterEach(() => fx.close());

  it('regenerate() answers again on a branch; the earlier answer stays on the chat thread', async () => {
    await chat.sendMessage({ text: 'q1' });
    await chat.sendMessage({ text: 'q2' });
    expect(errors).toEqual([]);
    const before = texts(chat);
    expect(before).toEqual(['user:q1', 'assistant:re:q1#1', 'user:q2', 'assistant:re:q2#3']);
    const calls = fx.requests.length;

    await chat.regenerate();
    expect(errors).toEqual([]);
    expect(announced).toHaveLength(1);
    const branch = announced[0]!;
    expect(branch.branchOf).toEqual({ threadId: chatId, seq: 2 });
    // the model was asked once, without the answer being replaced
    expect(fx.requests.length).toBe(calls + 1);
    expect(transcriptOf(fx.requests.at(-1)!)).toEqual(['user:q1', 'assistant:re:q1#1', 'user:q2']);
    expect(texts(chat)).toEqual(before);
    expect(chat.messages.at(-1)!.id).not.toBe(chatId);

    // the chat thread still holds the first answer; the branch the new one
    const source = await fx.json(`/v1/threads/${chatId}/messages`);
    expect(lines(source.body.items)).toEqual([
      'user:q1',
      'assistant:re:q1#1',
      'user:q2',
      'assistant:re:q2#3',
    ]);
    const onBranch = await fx.json(`/v1/threads/${branch.threadId}/messages`);
    expect(lines(onBranch.body.items)).toEqual([
      'user:q1',
      'assistant:re:q1#1',
      'user:q2',
      'assistant:re:q2#3',
    ]);
    expect(onBranch.body.items.slice(2).map((record: { threadId: string }) => record.threadId)).toEqual([
      branch.threadId,
      branch.threadId,
    ]);
    const listed = await fx.json(`/v1/threads/${chatId}/branches?atSeq=2`);
    expect(listed.body.items.map((thread: { id: string }) => thread.id)).toEqual([branch.threadId]);

    // the next message continues on the branch (the body names it), without branching again
    await chat.sendMessage({ text: 'q3' });
    expect(errors).toEqual([]);
    expect(announced).toHaveLength(1);
    expect(transcriptOf(fx.requests.at(-1)!)).toEqual([
      'user:q1',
      'assistant:re:q1#1',
      'user:q2',
      'assistant:re:q2#3',
      'user:q3',
    ]);
    expect((await fx.json(`/v1/threads/${branch.threadId}/messages`)).body.items).toHaveLength(6);
    expect((await fx.json(`/v1/threads/${chatId}/messages`)).body.items).toHaveLength(4);
  });

  it('an edited earlier user message runs on a branch before it; the edited-away turns stay reachable', async () => {
    await chat.sendMessage({ text: 'q1' });
    await chat.sendMessage({ text: 'q2' });
    await chat.sendMessage({ text: 'q3' });
    const second = chat.messages[2]!;
    expect(second.role).toBe('user');

    await chat.sendMessage({ text: 'q2 edited', messageId: second.id });
    expect(errors).toEqual([]);
    expect(announced).toEqual([{ threadId: expect.any(String), branchOf: { threadId: chatId, seq: 2 } }]);
    expect(transcriptOf(fx.requests.at(-1)!)).toEqual(['user:q1', 'assistant:re:q1#1', 'user:q2 edited']);
    expect(texts(chat)).toEqual([
      'user:q1',
      'assistant:re:q1#1',
      'user:q2 edited',
      'assistant:re:q2 edited#3',
    ]);
    expect((await fx.json(`/v1/threads/${chatId}/messages`)).body.items).toHaveLength(6);

    // editing the first message branches the branch at 0: nothing before it is kept
    const first = chat.messages[0]!;
    await chat.sendMessage({ text: 'q1 edited', messageId: first.id });
    expect(errors).toEqual([]);
    expect(announced[1]?.branchOf).toEqual({ threadId: announced[0]?.threadId, seq: 0 });
    expect(transcriptOf(fx.requests.at(-1)!)).toEqual(['user:q1 edited']);
    const earlier = await fx.json(`/v1/threads/${announced[0]?.threadId}/messages`);
    expect(lines(earlier.body.items)).toEqual([
      'user:q1',
      'assistant:re:q1#1',
      'user:q2 edited',
      'assistant:re:q2 edited#3',
    ]);
  });

  it('a new message at the end never branches; an unknown threadId is 404', async () => {
    await chat.sendMessage({ text: 'q1' });
    await chat.sendMessage({ text: 'q2' });
    expect(announced).toEqual([]);
    expect((await fx.json(`/v1/threads/${chatId}/branches`)).body.items).toEqual([]);
    threadId = 'no-such-thread';
    await chat.sendMessage({ text: 'q3' });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain('thread no-such-thread not found');
  });
});
