import type { LanguageModelV3GenerateResult, LanguageModelV3Usage } from '@ai-sdk/provider';
import { type ModelMessage, generateText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

/**
 * The ai@6 side of the HITL benchmark: the SDK's tool execution approval flow. A tool with
 * `needsApproval: true`; the first `generateText` stops with a `tool-approval-request` content part;
 * the app later calls `generateText` again with the history, the first call's response messages and
 * a tool message holding a `tool-approval-response`, and the SDK executes the tool and continues.
 * The mock model answers the same script as the Awaken benchmark's native model: a call to `danger`
 * when the last prompt message is the user's, the text `ok` otherwise.
 */
export interface AiHitl {
  /** Runs the first turn over `history`; returns everything the second call needs. */
  firstTurn(history: ModelMessage[]): Promise<PendingApproval>;
  /** The second call: approves the pending call; resolves with the final text and the full history. */
  approve(pending: PendingApproval): Promise<{ text: string; messages: ModelMessage[] }>;
}

/** What an ai@6 app keeps per pending approval: the messages so far and the approval id. */
export interface PendingApproval {
  messages: ModelMessage[];
  approvalId: string;
}

const USAGE: LanguageModelV3Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** `onToolStart` is called first thing in the approved tool's `execute`. */
export function createAiHitl(onToolStart: () => void): AiHitl {
  const tools = {
    danger: tool({
      description: 'needs approval',
      inputSchema: z.object({}).passthrough(),
      needsApproval: true,
      execute: async () => {
        onToolStart();
        return { ok: true };
      },
    }),
  };
  const model = new MockLanguageModelV3({
    provider: 'bench',
    modelId: 'scripted',
    doGenerate: async ({ prompt }): Promise<LanguageModelV3GenerateResult> => {
      // MockLanguageModelV3 logs every call; drop the log so neither time nor memory grows with it
      model.doGenerateCalls.length = 0;
      if (prompt.at(-1)?.role === 'user') {
        const toolCallId = `call_${prompt.length}`;
        return {
          content: [{ type: 'tool-call', toolCallId, toolName: 'danger', input: '{}' }],
          finishReason: { unified: 'tool-calls', raw: 'tool_use' },
          usage: USAGE,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: 'ok' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: USAGE,
        warnings: [],
      };
    },
  });
  return {
    async firstTurn(history) {
      const result = await generateText({ model, tools, maxRetries: 0, messages: history });
      const request = result.content.find((part) => part.type === 'tool-approval-request');
      if (!request) throw new Error('ai@6 first turn did not ask for approval');
      return { messages: [...history, ...result.response.messages], approvalId: request.approvalId };
    },
    async approve({ messages, approvalId }) {
      const input: ModelMessage[] = [
        ...messages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] },
      ];
      const result = await generateText({ model, tools, maxRetries: 0, messages: input });
      return { text: result.text, messages: [...input, ...result.response.messages] };
    },
  };
}
