import type {
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultPart,
} from '@ai-sdk/provider';
import { type AssistantMessage, type Message, type ToolMessage, assertNever } from '@awaken/contract';
import { toToolCallInput } from './to-tool-call-input';
import { MISSING_RESULT_TEXT, toToolResultOutput } from './to-tool-result-output';

/** How a system message that appears after the conversation started is sent. */
export type InlineSystemMessages = 'system' | 'user';

export interface ToPromptOptions {
  system?: string;
  messages: readonly Message[];
  inlineSystemMessages: InlineSystemMessages;
}

/**
 * Builds the V3 prompt for one inference. Guarantees, whatever order the history holds:
 * - the request's `system` and every system message before the first other message lead the prompt;
 * - every assistant tool call is followed, in the next message, by exactly one tool result, in call
 *   order (consecutive results share one tool message); a call without a recorded result gets an
 *   error result saying so, a result without a preceding call is dropped, a duplicate is ignored;
 * - no empty assistant message is sent.
 */
export function toPrompt(options: ToPromptOptions): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  if (options.system !== undefined && options.system !== '') {
    prompt.push({ role: 'system', content: options.system });
  }
  const results = firstResultById(options.messages);
  let leading = true;
  for (const message of options.messages) {
    switch (message.role) {
      case 'system':
        prompt.push(systemMessage(message.content, leading ? 'system' : options.inlineSystemMessages));
        break;
      case 'user':
        leading = false;
        prompt.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
        break;
      case 'assistant':
        leading = false;
        prompt.push(...assistantTurn(message, results));
        break;
      case 'tool':
        // Emitted right after the assistant turn that made the call.
        leading = false;
        break;
      default:
        assertNever(message, 'message role');
    }
  }
  return prompt;
}

function systemMessage(content: string, as: InlineSystemMessages): LanguageModelV3Message {
  if (as === 'system') return { role: 'system', content };
  return {
    role: 'user',
    content: [{ type: 'text', text: `<system-message>\n${content}\n</system-message>` }],
  };
}

function firstResultById(messages: readonly Message[]): Map<string, ToolMessage> {
  const results = new Map<string, ToolMessage>();
  for (const message of messages) {
    if (message.role === 'tool' && !results.has(message.toolCallId)) results.set(message.toolCallId, message);
  }
  return results;
}

function assistantTurn(
  message: AssistantMessage,
  results: Map<string, ToolMessage>,
): LanguageModelV3Message[] {
  const content: Extract<LanguageModelV3Message, { role: 'assistant' }>['content'] = [];
  if (message.reasoning) content.push({ type: 'reasoning', text: message.reasoning });
  if (message.text !== '') content.push({ type: 'text', text: message.text });
  const resultParts: LanguageModelV3ToolResultPart[] = [];
  for (const call of message.toolCalls) {
    content.push({
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.name,
      input: toToolCallInput(call.arguments),
    });
    const result = results.get(call.id);
    // Taken once: a second call reusing the id must not reuse this result.
    results.delete(call.id);
    resultParts.push({
      type: 'tool-result',
      toolCallId: call.id,
      toolName: call.name,
      output:
        result === undefined
          ? { type: 'error-text', value: MISSING_RESULT_TEXT }
          : toToolResultOutput(result),
    });
  }
  if (content.length === 0) return [];
  const turn: LanguageModelV3Message[] = [{ role: 'assistant', content }];
  if (resultParts.length > 0) turn.push({ role: 'tool', content: resultParts });
  return turn;
}
