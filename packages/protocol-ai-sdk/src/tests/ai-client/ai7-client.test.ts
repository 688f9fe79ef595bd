import { countExecutions, echoTool } from '@awaken/testing';
import { lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai7';
import { describe, expect, it, vi } from 'vitest';
import { createChatHarness } from '../../../test-support/chat-harness';
import { createTestChatV7 } from '../../../test-support/node-chat-v7';

describe('the ai@7 client (same wire envelope; we send only v6 chunks, which v7 accepts)', () => {
  it('answers, asks for approval, and continues the same message after an auto-sent approval', async () => {
    const echo = countExecutions(echoTool);
    const server = createChatHarness({
      turns: [
        { text: 'Checking.', toolCalls: [{ id: 'call_1', name: 'echo', arguments: { text: 'v7' } }] },
        { text: 'Done in v7.' },
      ],
      tools: [echo.tool],
      ask: ['echo'],
    });
    const { chat, errors } = createTestChatV7({
      api: server.api,
      fetch: server.fetch,
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    await chat.sendMessage({ text: 'echo v7' });
    expect(errors).toEqual([]);
    const messageId = chat.lastMessage!.id;
    expect(chat.lastMessage!.parts.filter((part) => part.type === 'tool-echo')).toMatchObject([
      { toolCallId: 'call_1', state: 'approval-requested', approval: { id: 'permission:1:call_1' } },
    ]);
    await chat.addToolApprovalResponse({ id: 'permission:1:call_1', approved: true });
    await vi.waitFor(() =>
      expect(chat.lastMessage!.parts.at(-1)).toMatchObject({ type: 'text', text: 'Done in v7.' }),
    );
    await vi.waitFor(() => expect(chat.status).toBe('ready'));
    expect(errors).toEqual([]);
    expect(chat.messages).toHaveLength(2);
    expect(chat.lastMessage!.id).toBe(messageId);
    expect(chat.lastMessage!.parts.filter((part) => part.type === 'tool-echo')).toMatchObject([
      { state: 'output-available', output: { echoed: 'v7' } },
    ]);
    expect(echo.count('call_1')).toBe(1);
  });
});
