import type { Message } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { createAiSdkModelExecutor } from '../../create-ai-sdk-model-executor';
import { createStreamModel, textTurn } from '../../../test-support/scripted-stream-model';

/** Runs one inference over `messages` and returns the prompt the provider received. */
async function promptFor(messages: Message[]) {
  const model = createStreamModel([textTurn('ok')]);
  const stream = createAiSdkModelExecutor(model).stream({
    system: 'You are helpful.',
    messages,
    tools: [],
    options: {},
    signal: new AbortController().signal,
  });
  for await (const _part of stream) {
    // drain
  }
  return model.doStreamCalls[0]?.prompt;
}

const weatherTurn: Message = {
  role: 'assistant',
  text: 'Let me check.',
  reasoning: 'The user wants the weather.',
  toolCalls: [
    { id: 'call_1', name: 'weather', arguments: { city: 'Paris' } },
    { id: 'call_2', name: 'delete_file', arguments: { path: '/tmp/x' } },
  ],
};

describe('the prompt a provider receives', () => {
  it('after a tool round: each call followed by its result, grouped in one tool message', async () => {
    const prompt = await promptFor([
      { role: 'user', content: 'Weather in Paris? Then clean up.' },
      weatherTurn,
      {
        role: 'tool',
        toolCallId: 'call_1',
        toolName: 'weather',
        outcome: 'succeeded',
        content: { tempC: 21 },
      },
      {
        role: 'tool',
        toolCallId: 'call_2',
        toolName: 'delete_file',
        outcome: 'succeeded',
        content: 'deleted',
      },
    ]);
    expect(prompt).toMatchInlineSnapshot(`
      [
        {
          "content": "You are helpful.",
          "role": "system",
        },
        {
          "content": [
            {
              "text": "Weather in Paris? Then clean up.",
              "type": "text",
            },
          ],
          "role": "user",
        },
        {
          "content": [
            {
              "text": "The user wants the weather.",
              "type": "reasoning",
            },
            {
              "text": "Let me check.",
              "type": "text",
            },
            {
              "input": {
                "city": "Paris",
              },
              "toolCallId": "call_1",
              "toolName": "weather",
              "type": "tool-call",
            },
            {
              "input": {
                "path": "/tmp/x",
              },
              "toolCallId": "call_2",
              "toolName": "delete_file",
              "type": "tool-call",
            },
          ],
          "role": "assistant",
        },
        {
          "content": [
            {
              "output": {
                "type": "json",
                "value": {
                  "tempC": 21,
                },
              },
              "toolCallId": "call_1",
              "toolName": "weather",
              "type": "tool-result",
            },
            {
              "output": {
                "type": "text",
                "value": "deleted",
              },
              "toolCallId": "call_2",
              "toolName": "delete_file",
              "type": "tool-result",
            },
          ],
          "role": "tool",
        },
      ]
    `);
  });

  it('after a denied call: the policy refusal is an error result the model reads', async () => {
    const prompt = await promptFor([
      { role: 'user', content: 'Weather in Paris? Then clean up.' },
      weatherTurn,
      {
        role: 'tool',
        toolCallId: 'call_1',
        toolName: 'weather',
        outcome: 'succeeded',
        content: { tempC: 21 },
      },
      {
        role: 'tool',
        toolCallId: 'call_2',
        toolName: 'delete_file',
        outcome: 'failed',
        // The content @awaken/runtime commits for a call a permission policy blocked.
        content: { error: 'Denied by permission policy: delete_file is not allowed.' },
      },
    ]);
    expect(prompt).toMatchInlineSnapshot(`
      [
        {
          "content": "You are helpful.",
          "role": "system",
        },
        {
          "content": [
            {
              "text": "Weather in Paris? Then clean up.",
              "type": "text",
            },
          ],
          "role": "user",
        },
        {
          "content": [
            {
              "text": "The user wants the weather.",
              "type": "reasoning",
            },
            {
              "text": "Let me check.",
              "type": "text",
            },
            {
              "input": {
                "city": "Paris",
              },
              "toolCallId": "call_1",
              "toolName": "weather",
              "type": "tool-call",
            },
            {
              "input": {
                "path": "/tmp/x",
              },
              "toolCallId": "call_2",
              "toolName": "delete_file",
              "type": "tool-call",
            },
          ],
          "role": "assistant",
        },
        {
          "content": [
            {
              "output": {
                "type": "json",
                "value": {
                  "tempC": 21,
                },
              },
              "toolCallId": "call_1",
              "toolName": "weather",
              "type": "tool-result",
            },
            {
              "output": {
                "type": "error-json",
                "value": {
                  "error": "Denied by permission policy: delete_file is not allowed.",
                },
              },
              "toolCallId": "call_2",
              "toolName": "delete_file",
              "type": "tool-result",
            },
          ],
          "role": "tool",
        },
      ]
    `);
  });

  it('after a cancelled call: a human rejection becomes execution-denied with the reason', async () => {
    const prompt = await promptFor([
      { role: 'user', content: 'Weather in Paris? Then clean up.' },
      weatherTurn,
      {
        role: 'tool',
        toolCallId: 'call_1',
        toolName: 'weather',
        outcome: 'succeeded',
        content: { tempC: 21 },
      },
      {
        role: 'tool',
        toolCallId: 'call_2',
        toolName: 'delete_file',
        outcome: 'cancelled',
        // The content @awaken/runtime commits for a call a human cancelled.
        content: { cancelled: true, reason: 'Keep that file.' },
      },
      { role: 'user', content: 'Just the weather, thanks.' },
    ]);
    expect(prompt).toMatchInlineSnapshot(`
      [
        {
          "content": "You are helpful.",
          "role": "system",
        },
        {
          "content": [
            {
              "text": "Weather in Paris? Then clean up.",
              "type": "text",
            },
          ],
          "role": "user",
        },
        {
          "content": [
            {
              "text": "The user wants the weather.",
              "type": "reasoning",
            },
            {
              "text": "Let me check.",
              "type": "text",
            },
            {
              "input": {
                "city": "Paris",
              },
              "toolCallId": "call_1",
              "toolName": "weather",
              "type": "tool-call",
            },
            {
              "input": {
                "path": "/tmp/x",
              },
              "toolCallId": "call_2",
              "toolName": "delete_file",
              "type": "tool-call",
            },
          ],
          "role": "assistant",
        },
        {
          "content": [
            {
              "output": {
                "type": "json",
                "value": {
                  "tempC": 21,
                },
              },
              "toolCallId": "call_1",
              "toolName": "weather",
              "type": "tool-result",
            },
            {
              "output": {
                "reason": "The tool call was cancelled and did not run. Reason: Keep that file.",
                "type": "execution-denied",
              },
              "toolCallId": "call_2",
              "toolName": "delete_file",
              "type": "tool-result",
            },
          ],
          "role": "tool",
        },
        {
          "content": [
            {
              "text": "Just the weather, thanks.",
              "type": "text",
            },
          ],
          "role": "user",
        },
      ]
    `);
  });
});
