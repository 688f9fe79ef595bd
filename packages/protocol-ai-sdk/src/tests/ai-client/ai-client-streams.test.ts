import { echoTool } from '@awaken/testing';
import { isToolUIPart } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { createChatHarness } from '../../../test-support/chat-harness';
import { createTestChat, lastParts } from '../../../test-support/node-chat';

const longAnswer = 'This answer streams slowly, four characters at a time, so there is time to act.';

describe('stream lifecycle with the real ai client', () => {
  it('a run cancelled mid-answer ends the turn cleanly: the partial text is closed, no client error', async () => {
    const server = createChatHarness({ turns: [{ text: longAnswer, delayMs: 5 }] });
    const { chat, errors } = createTestChat({ api: server.api, fetch: server.fetch });
    const sending = chat.sendMessage({ text: 'talk' });
    await vi.waitFor(() => expect(lastParts(chat)[0]).toMatchObject({ type: 'text', state: 'streaming' }));
    const runId = chat.lastMessage!.id;
    await server.runtime.cancelRun(runId, 'stopped by the user');
    await sending;
    expect(errors).toEqual([]);
    expect(chat.status).toBe('ready');
    const [text] = lastParts(chat);
    expect(text).toMatchObject({ type: 'text', state: 'done' });
    expect(longAnswer.startsWith((text as { text: string }).text)).toBe(true);
    expect((text as { text: string }).text.length).toBeLessThan(longAnswer.length);
    expect(chat.lastMessage!.metadata).toMatchObject({
      awaken: { status: 'done', termination: 'cancelled' },
    });
  });

  it('resumeStream after a dropped connection replays the run into the same message and follows it live', async () => {
    const server = createChatHarness({
      turns: [{ reasoning: 'hmm', text: longAnswer }],
      hold: { call: 0, afterParts: 4 },
    });
    const { chat, errors } = createTestChat({ api: server.api, fetch: server.fetch });
    server.cutNextResponse(6);
    await chat.sendMessage({ text: 'talk' });
    // the dropped connection is the one error the client reports; the run goes on
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TypeError);
    const runId = chat.lastMessage!.id;
    expect((await server.stores.threadRuns.getRun(runId))?.status).toBe('running');

    const resuming = chat.resumeStream();
    await vi.waitFor(() => expect(lastParts(chat)[0]).toMatchObject({ type: 'reasoning', text: 'hmm' }));
    server.release();
    await resuming;
    expect(errors).toHaveLength(1);
    expect(chat.status).toBe('ready');
    expect(chat.messages.map((message) => [message.role, message.id])).toEqual([
      ['user', chat.messages[0]!.id],
      ['assistant', runId],
    ]);
    expect(lastParts(chat)).toMatchObject([
      { type: 'reasoning', text: 'hmm', state: 'done' },
      { type: 'text', text: longAnswer, state: 'done' },
    ]);
  });

  it('resumeStream when nothing runs is a 204: the chat stays as it is', async () => {
    const server = createChatHarness({ turns: [{ text: 'Hi.' }] });
    const { chat, errors } = createTestChat({ api: server.api, fetch: server.fetch });
    await chat.sendMessage({ text: 'hello' });
    const before = structuredClone(chat.messages);
    await chat.resumeStream();
    expect(errors).toEqual([]);
    expect(chat.status).toBe('ready');
    expect(chat.messages).toEqual(before);
  });

  it('a replay of a run with several activations rebuilds the whole message, approvals and results included', async () => {
    const server = createChatHarness({
      turns: [
        { text: 'Asking.', toolCalls: [{ id: 'call_1', name: 'echo', arguments: { text: 'x' } }] },
        { text: longAnswer },
      ],
      tools: [echoTool],
      ask: ['echo'],
      hold: { call: 1, afterParts: 2 },
    });
    const { chat, errors } = createTestChat({ api: server.api, fetch: server.fetch });
    await chat.sendMessage({ text: 'go' });
    await chat.addToolApprovalResponse({ id: 'permission:1:call_1', approved: true });
    server.cutNextResponse(3);
    await chat.sendMessage();
    expect(errors).toHaveLength(1);
    const resuming = chat.resumeStream();
    await vi.waitFor(() =>
      expect(lastParts(chat).at(-1)).toMatchObject({ type: 'text', state: 'streaming' }),
    );
    server.release();
    await resuming;
    expect(errors).toHaveLength(1);
    expect(chat.status).toBe('ready');
    expect(chat.messages).toHaveLength(2);
    const parts = lastParts(chat);
    expect(parts).toMatchObject([
      { type: 'text', text: 'Asking.' },
      { type: 'tool-echo', toolCallId: 'call_1', state: 'output-available', output: { echoed: 'x' } },
      { type: 'text', text: longAnswer },
    ]);
    expect(parts.filter(isToolUIPart)).toHaveLength(1);
    expect(chat.lastMessage!.parts.filter((part) => part.type === 'step-start')).toHaveLength(2);
  });

  it('regenerate answers the last user message again as a new assistant message', async () => {
    const server = createChatHarness({ turns: [{ text: 'First try.' }, { text: 'Second try.' }] });
    const { chat, errors } = createTestChat({ api: server.api, fetch: server.fetch });
    await chat.sendMessage({ text: 'hello' });
    const first = chat.lastMessage!.id;
    await chat.regenerate();
    expect(errors).toEqual([]);
    expect(server.requests[1]).toMatchObject({ trigger: 'regenerate-message' });
    expect(chat.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(chat.lastMessage!.id).not.toBe(first);
    expect(lastParts(chat)).toMatchObject([{ type: 'text', text: 'Second try.' }]);
  });

  it('sends the canonical wire format: headers, one JSON data event per chunk, [DONE] last', async () => {
    const server = createChatHarness({
      turns: [{ text: 'Checking.', toolCalls: [{ id: 'call_1', name: 'echo', arguments: { text: 'x' } }] }],
      tools: [echoTool],
      ask: ['echo'],
    });
    const response = await server.fetch(server.api, {
      method: 'POST',
      body: JSON.stringify({
        id: 'chat-wire',
        trigger: 'submit-message',
        messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'echo x' }] }],
      }),
    });
    const headers = ['content-type', 'cache-control', 'x-vercel-ai-ui-message-stream', 'x-accel-buffering'];
    expect(headers.map((name) => response.headers.get(name))).toEqual([
      'text/event-stream',
      'no-cache',
      'v1',
      'no',
    ]);
    const body = await response.text();
    expect(body).not.toContain('\r');
    const events = body.split('\n\n').filter((event) => event !== '');
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((event) => {
      expect(event.startsWith('data: ')).toBe(true);
      return JSON.parse(event.slice('data: '.length)) as { type: string };
    });
    const types = chunks.map((chunk) => chunk.type).filter((type) => !type.endsWith('-delta'));
    expect(types).toEqual([
      'start',
      'start-step',
      'text-start',
      'text-end',
      'tool-input-start',
      'tool-input-available',
      'tool-approval-request',
      'finish-step',
      'finish',
    ]);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool-calls' });
  });
});
