import { AwakenError } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { parseChatRequest } from './chat-request';
import { readChatTurn } from './read-chat-turn';

const user = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hello' }] };
const assistant = (parts: unknown[]) => ({ id: 'run-1', role: 'assistant', parts });

function caught(run: () => unknown): AwakenError {
  try {
    run();
  } catch (error) {
    if (AwakenError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a throw');
}

describe('parseChatRequest', () => {
  it('accepts what DefaultChatTransport sends and keeps the extra body fields apart', () => {
    const request = parseChatRequest({
      id: 'chat-1',
      messages: [user],
      trigger: 'submit-message',
      agentId: 'demo',
      model: { temperature: 0 },
    });
    expect(request).toMatchObject({ id: 'chat-1', trigger: 'submit-message', body: { agentId: 'demo' } });
    expect(request.messageId).toBeUndefined();
  });

  it('passes unknown part types through unread (data parts, files, sources, step-start)', () => {
    const request = parseChatRequest({
      id: 'c',
      trigger: 'submit-message',
      messages: [
        user,
        assistant([
          { type: 'step-start' },
          { type: 'data-weather', data: { t: 1 } },
          { type: 'file', url: 'x' },
        ]),
      ],
    });
    expect(request.messages[1]!.parts).toHaveLength(3);
  });

  it.each([
    [{ messages: [user], trigger: 'submit-message' }, /id/],
    [{ id: 'c', messages: [user], trigger: 'resume-stream' }, /trigger/],
    [{ id: 'c', messages: [{ ...user, role: 'tool' }], trigger: 'submit-message' }, /messages\.0\.role/],
    [
      { id: 'c', messages: [{ ...user, parts: [{ type: 'text' }] }], trigger: 'submit-message' },
      /messages\.0\.parts\.0\.text/,
    ],
    [
      {
        id: 'c',
        trigger: 'submit-message',
        messages: [user, assistant([{ type: 'tool-echo', toolCallId: 'a', state: 'approved' }])],
      },
      /messages\.1\.parts\.0\.state/,
    ],
    [
      {
        id: 'c',
        trigger: 'submit-message',
        messages: [user, assistant([{ type: 'tool-echo', state: 'output-available' }])],
      },
      /messages\.1\.parts\.0\.toolCallId/,
    ],
  ])('rejects a malformed body naming the field (%#)', (body, field) => {
    const error = caught(() => parseChatRequest(body));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(field);
  });
});

describe('readChatTurn', () => {
  const read = (body: Record<string, unknown>) =>
    readChatTurn(parseChatRequest({ id: 'c', trigger: 'submit-message', ...body }));

  it('a user message last is a new message; regenerate answers the last user message again', () => {
    expect(read({ messages: [user] })).toEqual({ type: 'message', userMessageId: 'u1', text: 'hello' });
    expect(read({ messages: [user], trigger: 'regenerate-message', messageId: 'run-1' })).toEqual({
      type: 'regenerate',
      userMessageId: 'u1',
      text: 'hello',
      messageId: 'run-1',
    });
  });

  it('an assistant message last proposes the decisions of its answered tool parts', () => {
    const turn = read({
      messageId: 'run-1',
      messages: [
        user,
        assistant([
          { type: 'step-start' },
          { type: 'text', text: 'ok' },
          {
            type: 'tool-echo',
            toolCallId: 'a',
            state: 'approval-responded',
            input: { t: 1 },
            approval: { id: 'p:a', approved: true },
          },
          {
            type: 'tool-echo',
            toolCallId: 'b',
            state: 'approval-requested',
            input: {},
            approval: { id: 'p:b' },
          },
          {
            type: 'dynamic-tool',
            toolName: 'pick',
            toolCallId: 'c',
            state: 'output-available',
            input: {},
            output: 7,
          },
          { type: 'tool-ask', toolCallId: 'd', state: 'output-error', input: {}, errorText: 'nope' },
          { type: 'tool-echo', toolCallId: 'e', state: 'output-denied', input: {} },
          // a sub-agent call still running: its preliminary output is the server's progress, no answer
          {
            type: 'tool-janitor',
            toolCallId: 'f',
            state: 'output-available',
            input: {},
            output: { subagent: { status: 'running' } },
            preliminary: true,
          },
        ]),
      ],
    });
    expect(turn).toEqual({
      type: 'continue',
      messageId: 'run-1',
      proposals: [
        {
          kind: 'approval',
          approvalId: 'p:a',
          toolCallId: 'a',
          toolName: 'echo',
          approved: true,
          input: { t: 1 },
        },
        { kind: 'output', toolCallId: 'c', toolName: 'pick', input: {}, output: 7 },
        { kind: 'output-error', toolCallId: 'd', toolName: 'ask', input: {}, errorText: 'nope' },
      ],
    });
  });

  it.each([
    ['no message', { messages: [] }, /no message/],
    [
      'an assistant message with nothing answered',
      { messages: [user, assistant([{ type: 'text', text: 'hi' }])] },
      /nothing|no approval/,
    ],
    ['a system message last', { messages: [{ id: 's', role: 'system', parts: [] }] }, /system/],
    [
      'a user message without text',
      { messages: [{ ...user, parts: [{ type: 'file', url: 'x' }] }] },
      /no text/,
    ],
    [
      'regenerate after an assistant message',
      { trigger: 'regenerate-message', messages: [user, assistant([])] },
      /regenerate/,
    ],
  ])('refuses %s (the route answers 400)', (_, body, message) => {
    const error = caught(() => read(body));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(message);
  });
});
