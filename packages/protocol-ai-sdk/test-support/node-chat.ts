import {
  AbstractChat,
  type ChatInit,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  type UIMessage,
} from 'ai';

/** The state a `useChat` hook keeps, as plain fields (what `@ai-sdk/react`'s Chat does minus React). */
class NodeChatState<M extends UIMessage> implements ChatState<M> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: M[];

  constructor(messages: M[] = []) {
    this.messages = messages;
  }

  pushMessage = (message: M) => {
    this.messages = [...this.messages, message];
  };

  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };

  replaceMessage = (index: number, message: M) => {
    this.messages = [...this.messages.slice(0, index), message, ...this.messages.slice(index + 1)];
  };

  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** `AbstractChat` with a plain state: the client `useChat` runs, usable from Node. */
export class NodeChat<M extends UIMessage = UIMessage> extends AbstractChat<M> {
  constructor({ messages, ...init }: ChatInit<M>) {
    super({ ...init, state: new NodeChatState<M>(messages) });
  }
}

export interface TestChatOptions extends Omit<ChatInit<UIMessage>, 'transport'> {
  /** The chat endpoint, e.g. `http://127.0.0.1:1234/v1/ai-sdk/chat`. */
  api: string;
  fetch?: typeof fetch;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * A chat over `DefaultChatTransport` (what `useChat` uses by default) that records every error the
 * client reports: a test asserts `errors` is empty after each turn.
 */
export function createTestChat(options: TestChatOptions) {
  const { api, fetch, body, headers, onError, ...init } = options;
  const errors: Error[] = [];
  const chat = new NodeChat<UIMessage>({
    ...init,
    transport: new DefaultChatTransport({
      api,
      ...(fetch ? { fetch } : {}),
      ...(body ? { body } : {}),
      ...(headers ? { headers } : {}),
    }),
    onError: (error) => {
      errors.push(error);
      onError?.(error);
    },
  });
  return { chat, errors };
}

/** The last message's parts without `step-start`, for readable assertions. */
export function lastParts(chat: AbstractChat<UIMessage>) {
  return (chat.messages.at(-1)?.parts ?? []).filter((part) => part.type !== 'step-start');
}
