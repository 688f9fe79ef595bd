import {
  AbstractChat,
  type ChatInit,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  type UIMessage,
} from 'ai7';

/** The `ai@7` chat client (ESM only, Node >= 22 declared; its Chat code runs on Node 20 here). */
class NodeChatState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: UIMessage[] = [];
  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = [...this.messages.slice(0, index), message, ...this.messages.slice(index + 1)];
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

class NodeChatV7 extends AbstractChat<UIMessage> {
  constructor(init: ChatInit<UIMessage>) {
    super({ ...init, state: new NodeChatState() });
  }
}

/** A v7 chat over `DefaultChatTransport`, recording every error the client reports. */
export function createTestChatV7(
  options: { api: string; fetch?: typeof globalThis.fetch } & Omit<ChatInit<UIMessage>, 'transport'>,
) {
  const { api, fetch, ...init } = options;
  const errors: Error[] = [];
  const chat = new NodeChatV7({
    ...init,
    transport: new DefaultChatTransport({ api, ...(fetch ? { fetch } : {}) }),
    onError: (error) => errors.push(error),
  });
  return { chat, errors };
}
