import type { AgentEvent, AgentEventInput, SuspendTicket } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { encodeUiMessageStream } from './encode-ui-message-stream';
import type { UiMessageChunk } from '../wire/ui-message-chunk';

let seq = 0;
const events = (...inputs: AgentEventInput[]): AgentEvent[] =>
  inputs.map((input) => ({ ...input, runId: 'run-1', seq: ++seq, at: 0 }) as AgentEvent);

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const EXPIRES = Date.UTC(2026, 0, 1, 12, 0, 0);
const ticket = (id: string, expiresAt?: number): SuspendTicket => ({
  suspension: { id: `permission:1:${id}`, action: 'confirm', message: 'Allow?' },
  pending: { id, name: 'echo', arguments: { text: id } },
  resumeMode: 'replay_tool_call',
  ...(expiresAt === undefined ? {} : { expiresAt }),
});

async function encode(input: AgentEvent[]): Promise<UiMessageChunk[]> {
  const chunks: UiMessageChunk[] = [];
  for await (const chunk of encodeUiMessageStream(input, { messageId: 'run-1' })) chunks.push(chunk);
  return chunks;
}

describe('expiring approvals in the AI SDK stream', () => {
  it("finish metadata names each expiring ticket's expiresAt (ISO), keyed by approval id", async () => {
    const chunks = await encode(
      events(
        { type: 'step_start', step: 1 },
        { type: 'tool_call_ready', toolCallId: 'a', toolName: 'echo', arguments: { text: 'a' } },
        { type: 'tool_call_suspended', toolCallId: 'a', toolName: 'echo', ticket: ticket('a', EXPIRES) },
        { type: 'tool_call_ready', toolCallId: 'b', toolName: 'echo', arguments: { text: 'b' } },
        { type: 'tool_call_suspended', toolCallId: 'b', toolName: 'echo', ticket: ticket('b') },
        { type: 'run_finish', status: 'waiting', termination: { type: 'suspended' }, usage },
      ),
    );
    expect(chunks.at(-1)).toMatchObject({
      type: 'finish',
      messageMetadata: {
        awaken: {
          status: 'waiting',
          waitingFor: ['permission:1:a', 'permission:1:b'],
          expiresAt: { 'permission:1:a': '2026-01-01T12:00:00.000Z' },
        },
      },
    });
  });

  it('an expired call is an output error in the runtime words, not a denial', async () => {
    const chunks = await encode(
      events(
        { type: 'step_start', step: 1 },
        { type: 'tool_call_suspended', toolCallId: 'a', toolName: 'echo', ticket: ticket('a', EXPIRES) },
        {
          type: 'tool_call_done',
          toolCallId: 'a',
          toolName: 'echo',
          status: 'expired',
          result: { status: 'error', message: 'The approval for this call to "echo" expired' },
        },
      ),
    );
    expect(chunks.some((chunk) => chunk.type === 'tool-output-denied')).toBe(false);
    expect(chunks).toContainEqual({
      type: 'tool-output-error',
      toolCallId: 'a',
      errorText: 'The approval for this call to "echo" expired',
    });
  });
});
