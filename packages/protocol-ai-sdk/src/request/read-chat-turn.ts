import { AwakenError, assertNever } from '@awaken/contract';
import { type ChatRequest, type UiMessage, isToolPartType, uiToolPartSchema } from './chat-request';

/**
 * What one tool part of the client's last assistant message claims was decided. Only a proposal:
 * the server checks it against the calls it knows are waiting ({@link matchDecisions}).
 */
export type ProposedDecision =
  | {
      kind: 'approval';
      approvalId: string;
      toolCallId: string;
      toolName?: string;
      approved: boolean;
      reason?: string;
      input?: unknown;
    }
  | { kind: 'output'; toolCallId: string; toolName?: string; output: unknown; input?: unknown }
  | { kind: 'output-error'; toolCallId: string; toolName?: string; errorText: string; input?: unknown };

/** What a chat request asks for. */
export type ChatTurn =
  /** A new user message: `text` is the input of a new run. */
  | { type: 'message'; userMessageId: string; text: string }
  /** Answer the last user message again (`regenerate()`); `messageId` is the replaced answer's id. */
  | { type: 'regenerate'; userMessageId: string; text: string; messageId?: string }
  /** Continue the assistant message `messageId` with the decisions its tool parts propose. */
  | { type: 'continue'; messageId: string; proposals: ProposedDecision[] };

function invalid(message: string, field: string): AwakenError {
  return new AwakenError('validation_failed', message, { details: { issues: [{ path: field, message }] } });
}

function userText(message: UiMessage, index: number): string {
  const text = message.parts
    .flatMap((part) => (part.type === 'text' && typeof part.text === 'string' ? [part.text] : []))
    .join('');
  if (text.trim() === '')
    throw invalid(`messages.${index}: the user message has no text`, `messages.${index}.parts`);
  return text;
}

function toolName(type: string, part: { toolName?: string | undefined }): string | undefined {
  return type === 'dynamic-tool' ? part.toolName : type.slice('tool-'.length);
}

/** The decisions the tool parts of an assistant message propose, in part order. */
export function proposeDecisions(message: UiMessage): ProposedDecision[] {
  const proposals: ProposedDecision[] = [];
  for (const raw of message.parts) {
    if (!isToolPartType(raw.type)) continue;
    const part = uiToolPartSchema.parse(raw);
    const name = toolName(part.type, part);
    const common = {
      toolCallId: part.toolCallId,
      ...(name === undefined ? {} : { toolName: name }),
      ...('input' in part ? { input: part.input } : {}),
    };
    if (part.state === 'approval-responded' && part.approval?.approved !== undefined) {
      proposals.push({
        kind: 'approval',
        approvalId: part.approval.id,
        ...common,
        approved: part.approval.approved,
        ...(part.approval.reason === undefined ? {} : { reason: part.approval.reason }),
      });
    } else if (part.state === 'output-available' && part.preliminary !== true) {
      // a preliminary output is progress the server sent (a sub-agent running), not an answer
      proposals.push({ kind: 'output', ...common, output: part.output });
    } else if (part.state === 'output-error') {
      proposals.push({ kind: 'output-error', ...common, errorText: part.errorText ?? 'the tool failed' });
    }
  }
  return proposals;
}

/**
 * Reads what a parsed chat request asks for. The client sends its whole history every time; only
 * the last message is new: a user message starts a run (or, with `regenerate-message`, answers it
 * again); an assistant message carries decisions in its tool parts. Throws
 * `AwakenError('validation_failed')` when there is nothing to do (no messages, an assistant message
 * whose parts propose nothing, a system message last).
 */
export function readChatTurn(request: ChatRequest): ChatTurn {
  const index = request.messages.length - 1;
  const last = request.messages[index];
  if (!last) throw invalid('messages: the chat request has no message', 'messages');
  if (request.trigger === 'regenerate-message') {
    if (last.role !== 'user')
      throw invalid(`messages.${index}: regenerate needs the history to end with a user message`, 'messages');
    return {
      type: 'regenerate',
      userMessageId: last.id,
      text: userText(last, index),
      ...(request.messageId === undefined ? {} : { messageId: request.messageId }),
    };
  }
  switch (last.role) {
    case 'user':
      return { type: 'message', userMessageId: last.id, text: userText(last, index) };
    case 'assistant': {
      const proposals = proposeDecisions(last);
      if (proposals.length === 0)
        throw invalid(
          `messages.${index}: the assistant message has no approval response or tool output to send`,
          `messages.${index}.parts`,
        );
      return { type: 'continue', messageId: last.id, proposals };
    }
    case 'system':
      throw invalid(
        `messages.${index}: a chat request cannot end with a system message`,
        `messages.${index}.role`,
      );
    default:
      return assertNever(last.role, 'message role');
  }
}
