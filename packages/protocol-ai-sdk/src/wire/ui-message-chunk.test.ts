import { type UIMessageChunk, uiMessageChunkSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import type { UiMessageChunk, UiMessageChunkType } from './ui-message-chunk';

const metadata = { awaken: { runId: 'r', status: 'running' as const } };

/** One chunk of every type this package emits (a missing type fails to compile). */
const SAMPLES: { [T in UiMessageChunkType]: Extract<UiMessageChunk, { type: T }> } = {
  start: { type: 'start', messageId: 'm', messageMetadata: metadata },
  'start-step': { type: 'start-step' },
  'finish-step': { type: 'finish-step' },
  'text-start': { type: 'text-start', id: 't' },
  'text-delta': { type: 'text-delta', id: 't', delta: 'x' },
  'text-end': { type: 'text-end', id: 't' },
  'reasoning-start': { type: 'reasoning-start', id: 'r' },
  'reasoning-delta': { type: 'reasoning-delta', id: 'r', delta: 'x' },
  'reasoning-end': { type: 'reasoning-end', id: 'r' },
  'tool-input-start': { type: 'tool-input-start', toolCallId: 'c', toolName: 'n', dynamic: true },
  'tool-input-delta': { type: 'tool-input-delta', toolCallId: 'c', inputTextDelta: '{' },
  'tool-input-available': { type: 'tool-input-available', toolCallId: 'c', toolName: 'n', input: { a: 1 } },
  'tool-approval-request': {
    type: 'tool-approval-request',
    approvalId: 'p',
    toolCallId: 'c',
    approvalDescriptor: { toolName: 'd', input: { a: 1 }, agentPath: ['x', 'y'], message: 'y › d: ok?' },
  },
  'tool-output-available': {
    type: 'tool-output-available',
    toolCallId: 'c',
    output: null,
    preliminary: true,
  },
  'tool-output-error': { type: 'tool-output-error', toolCallId: 'c', errorText: 'e' },
  'tool-output-denied': { type: 'tool-output-denied', toolCallId: 'c' },
  'data-awaken-thread': {
    type: 'data-awaken-thread',
    data: { threadId: 'branch', branchOf: { threadId: 'chat', seq: 2 } },
    transient: true,
  },
  'data-awaken-question': {
    type: 'data-awaken-question',
    id: 'indeterminate:1:c',
    data: {
      kind: 'indeterminate',
      ticketId: 'indeterminate:1:c',
      toolCallId: 'c',
      toolName: 'n',
      message: 'did it happen?',
      responseSchema: { type: 'object' },
      outcomes: ['retry', 'result', 'fail'],
    },
  },
  'message-metadata': { type: 'message-metadata', messageMetadata: metadata },
  error: { type: 'error', errorText: 'e' },
  finish: { type: 'finish', finishReason: 'tool-calls', messageMetadata: metadata },
};

async function acceptedByV6(value: unknown): Promise<boolean> {
  const result = await uiMessageChunkSchema().validate!(value);
  return result.success;
}

describe('UiMessageChunk', () => {
  it('every chunk type is a v6 UIMessageChunk, by type and by the client schema', async () => {
    for (const chunk of Object.values(SAMPLES)) {
      const typed: UIMessageChunk = chunk;
      expect(await acceptedByV6(JSON.parse(JSON.stringify(typed)))).toBe(true);
    }
  });

  it('the v6 client schema refuses v7-only chunks and values, which is why none is ever sent', async () => {
    expect(await acceptedByV6({ type: 'reset-step' })).toBe(false);
    expect(await acceptedByV6({ type: 'finish', finishReason: 'interrupted' })).toBe(false);
  });
});
