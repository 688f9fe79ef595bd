import {
  AbstractChat,
  type ChatInit,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  type UIMessage,
} from 'ai7';

/** The `ai@7` chat state (v7 is ESM only and declares Node >= 22; its Chat code runs on Node 20 here). */
class PlainChatState implements ChatState<UIMessage> {
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
    super({ ...init, state: new PlainChatState() });
  }
}

/** A v7 chat against the reference server, recording every error the client reports. */
export function createChatClientV7(
  options: { url: string } & Omit<ChatInit<UIMessage>, 'transport' | 'onError'>,
) {
  const { url, ...init } = options;
  const errors: Error[] = [];
  const chat = new NodeChatV7({
    ...init,
    transport: new DefaultChatTransport({ api: `${url}/v1/ai-sdk/chat` }),
    onError: (error) => errors.push(error),
  });
  return { chat, errors };
}
