import { countExecutions, echoTool } from '@awaken/testing';
import { type UIMessage, isToolUIPart, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { createChatHarness } from '../../../test-support/chat-harness';
import { createTestChat, lastParts } from '../../../test-support/node-chat';

function toolParts(message: UIMessage | undefined) {
  return (message?.parts ?? []).filter(isToolUIPart);
}

const askTwice = {
  text: 'Let me echo both.',
  toolCalls: [
    { id: 'call_a', name: 'echo', arguments: { text: 'a' } },
    { id: 'call_b', name: 'echo', arguments: { text: 'b' } },
  ],
};

describe('approvals with the real ai client (AbstractChat + DefaultChatTransport)', () => {
  it('a plain answer is one assistant message with reasoning and text, and no error', async () => {
    const server = createChatHarness({ turns: [{ reasoning: 'thinking', text: 'Hello there.' }] });
    const { chat, errors } = createTestChat({ api: server.api, fetch: server.fetch });
    await chat.sendMessage({ text: 'hi' });
    expect(errors).toEqual([]);
    expect(chat.status).toBe('ready');
    expect(chat.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(lastParts(chat)).toMatchObject([
      { type: 'reasoning', text: 'thinking', state: 'done' },
      { type: 'text', text: 'Hello there.', state: 'done' },
    ]);
    const assistant = chat.messages[1]!;
    expect(assistant.metadata).toMatchObject({ awaken: { runId: assistant.id, status: 'done' } });
  });

  it('approve: the tool part asks, then the continuation fills the same part of the same message', async () => {
    const echo = countExecutions(echoTool);
    const server = createChatHarness({
      turns: [
        { text: 'Let me check.', toolCalls: [{ id: 'call_1', name: 'echo', arguments: { text: 'hi' } }] },
        { text: 'It said hi.' },
      ],
      tools: [echo.tool],
      ask: ['echo'],
    });
    const { chat, errors } = createTestChat({ api: server.api, fetch: server.fetch });
    await chat.sendMessage({ text: 'echo hi' });
    expect(errors).toEqual([]);
    const asked = toolParts(chat.lastMessage)[0]!;
    expect(asked).toMatchObject({
      type: 'tool-echo',
      toolCallId: 'call_1',
      state: 'approval-requested',
      input: { text: 'hi' },
      approval: { id: 'permission:1:call_1' },
    });
    const messageId = chat.lastMessage!.id;
    expect(chat.lastMessage!.metadata).toMatchObject({
      awaken: { runId: messageId, status: 'waiting', waitingFor: ['permission:1:call_1'] },
    });
    expect(echo.count()).toBe(0);

    await chat.addToolApprovalResponse({ id: 'permission:1:call_1', approved: true });
    await chat.sendMessage();
    expect(errors).toEqual([]);
    expect(chat.messages).toHaveLength(2);
    expect(chat.lastMessage!.id).toBe(messageId);
    expect(lastParts(chat)).toMatchObject([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool-echo', toolCallId: 'call_1', state: 'output-available', output: { echoed: 'hi' } },
      { type: 'text', text: 'It said hi.', state: 'done' },
    ]);
    expect(chat.lastMessage!.metadata).toMatchObject({ awaken: { status: 'done' } });
    expect(echo.count('call_1')).toBe(1);
    expect(server.requests[1]).toMatchObject({ trigger: 'submit-message', messageId });
  });

  it('deny: the part ends output-denied, the tool never runs and the model reads the reason', async () => {
    const echo = countExecutions(echoTool);
    const server = createChatHarness({
      turns: [
        { toolCalls: [{ id: 'call_1', name: 'echo', arguments: { text: 'x' } }] },
        { text: 'Okay, not doing it.' },
      ],
      tools: [echo.tool],
      ask: ['echo'],
    });
    const { chat, errors } = createTestChat({ api: server.api, fetch: server.fetch });
    await chat.sendMessage({ text: 'echo x' });
    await chat.addToolApprovalResponse({ id: 'permission:1:call_1', approved: false, reason: 'not now' });
    await chat.sendMessage();
    expect(errors).toEqual([]);
    expect(lastParts(chat)).toMatchObject([
      { type: 'tool-echo', toolCallId: 'call_1', state: 'output-denied' },
      { type: 'text', text: 'Okay, not doing it.' },
    ]);
    expect(echo.count()).toBe(0);
    expect(JSON.stringify(server.model.requests[1]!.messages.at(-1))).toContain('not now');
  });

  it('parallel approvals answered in separate requests: each resumes its own call, the rest keep waiting', async () => {
    const echo = countExecutions(echoTool);
    const server = createChatHarness({
      turns: [askTwice, { text: 'Both handled.' }],
      tools: [echo.tool],
      ask: ['echo'],
    });
    const { chat, errors } = createTestChat({ api: server.api, fetch: server.fetch });
    await chat.sendMessage({ text: 'echo a and b' });
    expect(toolParts(chat.lastMessage).map((part) => part.state)).toEqual([
      'approval-requested',
      'approval-requested',
    ]);

    await chat.addToolApprovalResponse({ id: 'permission:1:call_a', approved: true });
    expect(lastAssistantMessageIsCompleteWithApprovalResponses({ messages: chat.messages })).toBe(false);
    await chat.sendMessage();
    expect(errors).toEqual([]);
    expect(toolParts(chat.lastMessage).map((part) => part.state)).toEqual([
      'output-available',
      'approval-requested',
    ]);
    expect(chat.lastMessage!.metadata).toMatchObject({
      awaken: { status: 'waiting', waitingFor: ['permission:1:call_b'] },
    });
    expect(echo.count('call_a')).toBe(1);
    expect(echo.count('call_b')).toBe(0);

    // the continuation reopened step 1 without a new step-start, so the client still sees b in the last step
    expect(chat.lastMessage!.parts.filter((part) => part.type === 'step-start')).toHaveLength(1);
    await chat.addToolApprovalResponse({ id: 'permission:1:call_b', approved: false });
    expect(lastAssistantMessageIsCompleteWithApprovalResponses({ messages: chat.messages })).toBe(true);
    await chat.sendMessage();
    expect(errors).toEqual([]);
    expect(chat.messages).toHaveLength(2);
    expect(lastParts(chat)).toMatchObject([
      { type: 'text', text: 'Let me echo both.' },
      { type: 'tool-echo', toolCallId: 'call_a', state: 'output-available', output: { echoed: 'a' } },
      { type: 'tool-echo', toolCallId: 'call_b', state: 'output-denied' },
      { type: 'text', text: 'Both handled.' },
    ]);
    expect(echo.count('call_a')).toBe(1);
    expect(echo.count('call_b')).toBe(0);
  });

  it('auto-send with lastAssistantMessageIsCompleteWithApprovalResponses sends once every approval is answered', async () => {
    const echo = countExecutions(echoTool);
    const server = createChatHarness({
      turns: [askTwice, { text: 'Done.' }],
      tools: [echo.tool],
      ask: ['echo'],
    });
    const { chat, errors } = createTestChat({
      api: server.api,
      fetch: server.fetch,
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    await chat.sendMessage({ text: 'echo a and b' });
    await chat.addToolApprovalResponse({ id: 'permission:1:call_a', approved: true });
    expect(server.requests).toHaveLength(1);
    await chat.addToolApprovalResponse({ id: 'permission:1:call_b', approved: true });
    await vi.waitFor(() => expect(lastParts(chat).at(-1)).toMatchObject({ type: 'text', text: 'Done.' }));
    await vi.waitFor(() => expect(chat.status).toBe('ready'));
    expect(errors).toEqual([]);
    expect(server.requests).toHaveLength(2);
    expect(toolParts(chat.lastMessage).map((part) => part.state)).toEqual([
      'output-available',
      'output-available',
    ]);
    expect(echo.count('call_a') + echo.count('call_b')).toBe(2);
  });
});
