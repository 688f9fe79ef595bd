import { lastAssistantMessageIsCompleteWithToolCalls } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { createChatHarness } from '../../../test-support/chat-harness';
import { createTestChat, lastParts } from '../../../test-support/node-chat';

const location = {
  name: 'get_location',
  description: 'Reads the browser location.',
  parameters: {
    type: 'object',
    properties: { precision: { enum: ['city', 'exact'] } },
    required: ['precision'],
  },
};

const askLocation = { toolCalls: [{ id: 'loc_1', name: 'get_location', arguments: { precision: 'city' } }] };

describe('client tools with the real ai client', () => {
  it('a client tool call stays input-available; addToolOutput continues the same message', async () => {
    const server = createChatHarness({
      turns: [askLocation, { text: 'You are in Paris.' }],
      clientTools: [location],
    });
    const calls: unknown[] = [];
    const { chat, errors } = createTestChat({
      api: server.api,
      fetch: server.fetch,
      onToolCall: ({ toolCall }) => {
        calls.push(toolCall);
      },
    });
    await chat.sendMessage({ text: 'where am I?' });
    expect(errors).toEqual([]);
    expect(lastParts(chat)).toMatchObject([
      {
        type: 'tool-get_location',
        toolCallId: 'loc_1',
        state: 'input-available',
        input: { precision: 'city' },
      },
    ]);
    expect(calls).toMatchObject([
      { toolName: 'get_location', toolCallId: 'loc_1', input: { precision: 'city' } },
    ]);
    const messageId = chat.lastMessage!.id;
    expect(chat.lastMessage!.metadata).toMatchObject({
      awaken: { status: 'waiting', waitingFor: ['client_tool:1:loc_1'] },
    });

    await chat.addToolOutput({ tool: 'get_location', toolCallId: 'loc_1', output: { city: 'Paris' } });
    await chat.sendMessage();
    expect(errors).toEqual([]);
    expect(chat.messages).toHaveLength(2);
    expect(chat.lastMessage!.id).toBe(messageId);
    expect(lastParts(chat)).toMatchObject([
      {
        type: 'tool-get_location',
        toolCallId: 'loc_1',
        state: 'output-available',
        output: { city: 'Paris' },
      },
      { type: 'text', text: 'You are in Paris.' },
    ]);
    expect(server.model.requests[1]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      toolCallId: 'loc_1',
      content: { city: 'Paris' },
    });
  });

  it('an output-error from the client ends the call with that error, which the model reads', async () => {
    const server = createChatHarness({
      turns: [askLocation, { text: 'No location then.' }],
      clientTools: [location],
    });
    const { chat, errors } = createTestChat({
      api: server.api,
      fetch: server.fetch,
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
    });
    await chat.sendMessage({ text: 'where am I?' });
    await chat.addToolOutput({
      tool: 'get_location',
      toolCallId: 'loc_1',
      state: 'output-error',
      errorText: 'permission refused by the browser',
    });
    await vi.waitFor(() =>
      expect(lastParts(chat).at(-1)).toMatchObject({ type: 'text', text: 'No location then.' }),
    );
    await vi.waitFor(() => expect(chat.status).toBe('ready'));
    expect(errors).toEqual([]);
    expect(lastParts(chat)[0]).toMatchObject({
      state: 'output-error',
      errorText: 'permission refused by the browser',
    });
    expect(JSON.stringify(server.model.requests[1]!.messages.at(-1))).toContain(
      'permission refused by the browser',
    );
  });
});
