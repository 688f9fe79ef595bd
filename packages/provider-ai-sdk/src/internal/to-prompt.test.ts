import type { Message } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { toPrompt } from './to-prompt';
import { MISSING_RESULT_TEXT } from './to-tool-result-output';

const call = (id: string, args: unknown = {}) => ({ id, name: 'echo', arguments: args });
const ok = (id: string, content: unknown = 'done'): Message => ({
  role: 'tool',
  toolCallId: id,
  toolName: 'echo',
  outcome: 'succeeded',
  content,
});

function prompt(messages: Message[], inlineSystemMessages: 'system' | 'user' = 'user') {
  return toPrompt({ messages, inlineSystemMessages });
}

describe('toPrompt', () => {
  it('moves results that arrived after a later user message right behind their call', () => {
    const result = prompt([
      { role: 'user', content: 'go' },
      { role: 'assistant', text: '', toolCalls: [call('a'), call('b')] },
      ok('a'),
      { role: 'user', content: 'steering input while b was suspended' },
      ok('b'),
    ]);
    expect(result.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(result[2]).toMatchObject({
      role: 'tool',
      content: [{ toolCallId: 'a' }, { toolCallId: 'b' }],
    });
  });

  it('orders results by call order, whatever order they were recorded in', () => {
    const result = prompt([
      { role: 'assistant', text: '', toolCalls: [call('a'), call('b')] },
      ok('b'),
      ok('a'),
    ]);
    expect(result[1]?.content).toMatchObject([{ toolCallId: 'a' }, { toolCallId: 'b' }]);
  });

  it('gives a call without a recorded result an error result saying so', () => {
    const result = prompt([{ role: 'assistant', text: 'x', toolCalls: [call('a')] }]);
    expect(result[1]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'a',
          toolName: 'echo',
          output: { type: 'error-text', value: MISSING_RESULT_TEXT },
        },
      ],
    });
  });

  it('drops a result without a call and keeps only the first of duplicate results', () => {
    const result = prompt([
      ok('orphan'),
      { role: 'assistant', text: '', toolCalls: [call('a')] },
      ok('a', 'first'),
      ok('a', 'second'),
    ]);
    expect(result).toHaveLength(2);
    expect(result[1]?.content).toMatchObject([{ output: { type: 'text', value: 'first' } }]);
  });

  it('sends leading system messages as system and later ones as wrapped user messages by default', () => {
    const messages: Message[] = [
      { role: 'system', content: 'rules' },
      { role: 'user', content: 'hi' },
      { role: 'system', content: 'reminder' },
    ];
    expect(prompt(messages)).toEqual([
      { role: 'system', content: 'rules' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'user', content: [{ type: 'text', text: '<system-message>\nreminder\n</system-message>' }] },
    ]);
    expect(prompt(messages, 'system')[2]).toEqual({ role: 'system', content: 'reminder' });
  });

  it('puts the request system prompt first', () => {
    const result = toPrompt({
      system: 'sys',
      messages: [{ role: 'user', content: 'hi' }],
      inlineSystemMessages: 'user',
    });
    expect(result[0]).toEqual({ role: 'system', content: 'sys' });
  });

  it('skips an empty assistant turn', () => {
    expect(
      prompt([
        { role: 'user', content: 'hi' },
        { role: 'assistant', text: '', toolCalls: [] },
      ]),
    ).toHaveLength(1);
  });

  it('sends past tool call inputs as JSON objects, even when the model emitted invalid JSON', () => {
    const result = prompt([
      {
        role: 'assistant',
        text: '',
        toolCalls: [
          call('a', '{"n":1}'),
          call('b', '{"n":'),
          call('c', [1, 2]),
          call('d', { when: new Date(0) }),
        ],
      },
    ]);
    expect(result[0]?.content).toMatchObject([
      { toolCallId: 'a', input: { n: 1 } },
      { toolCallId: 'b', input: {} },
      { toolCallId: 'c', input: {} },
      { toolCallId: 'd', input: { when: '1970-01-01T00:00:00.000Z' } },
    ]);
  });

  it('maps every outcome to a result the model can read', () => {
    const result = prompt([
      { role: 'assistant', text: '', toolCalls: [call('a'), call('b'), call('c'), call('d'), call('e')] },
      { role: 'tool', toolCallId: 'a', toolName: 'echo', outcome: 'succeeded', content: undefined },
      { role: 'tool', toolCallId: 'b', toolName: 'echo', outcome: 'failed', content: { error: 'boom' } },
      {
        role: 'tool',
        toolCallId: 'c',
        toolName: 'echo',
        outcome: 'failed',
        content: 'invalid arguments: n is required',
      },
      { role: 'tool', toolCallId: 'd', toolName: 'echo', outcome: 'cancelled', content: undefined },
      {
        role: 'tool',
        toolCallId: 'e',
        toolName: 'echo',
        outcome: 'cancelled',
        content: { cancelled: true, reason: 'run cancelled' },
      },
    ]);
    const toolMessage = result[1];
    if (toolMessage?.role !== 'tool') throw new Error('expected a tool message');
    expect(toolMessage.content.map((part) => ('output' in part ? part.output : undefined))).toEqual([
      { type: 'json', value: null },
      { type: 'error-json', value: { error: 'boom' } },
      { type: 'error-text', value: 'invalid arguments: n is required' },
      { type: 'execution-denied', reason: 'The tool call was cancelled and did not run.' },
      {
        type: 'execution-denied',
        reason: 'The tool call was cancelled and did not run. Reason: run cancelled',
      },
    ]);
  });
});
