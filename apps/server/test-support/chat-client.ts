import {
  AbstractChat,
  type ChatInit,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  type UIMessage,
} from 'ai';
import { checkedFetch } from './wire-check';

/** `useChat`'s state as plain fields (what `@ai-sdk/react`'s Chat keeps, minus React). */
class PlainChatState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  constructor(public messages: UIMessage[] = []) {}
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

/** The `ai@6` client `useChat` runs: `AbstractChat` over `DefaultChatTransport`. */
export class NodeChat extends AbstractChat<UIMessage> {
  constructor({ messages, ...init }: ChatInit<UIMessage>) {
    super({ ...init, state: new PlainChatState(messages) });
  }
}

export interface ChatClientOptions extends Omit<ChatInit<UIMessage>, 'transport' | 'onError'> {
  /** The server's base URL; the chat posts to `${url}/v1/ai-sdk/chat`. */
  url: string;
  fetch?: typeof globalThis.fetch;
  body?: Record<string, unknown>;
}

/**
 * A chat against the reference server that records every error the client reports. Every response
 * it reads is checked on the wire as well (`wireProblems()` of `./wire-check`).
 */
export function createChatClient(options: ChatClientOptions) {
  const { url, fetch, body, ...init } = options;
  const errors: Error[] = [];
  const chat = new NodeChat({
    ...init,
    transport: new DefaultChatTransport({
      api: `${url}/v1/ai-sdk/chat`,
      fetch: checkedFetch(fetch),
      ...(body ? { body } : {}),
    }),
    onError: (error) => errors.push(error),
  });
  return { chat, errors };
}

/** The last message's tool parts. */
export function toolParts(chat: AbstractChat<UIMessage>): Array<Record<string, any>> {
  return (chat.lastMessage?.parts ?? []).filter((part) => part.type.startsWith('tool-')) as never;
}

/** The last message's text, all text parts joined. */
export function lastText(chat: AbstractChat<UIMessage>): string {
  return (chat.lastMessage?.parts ?? [])
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('');
}

/**
 * A `fetch` whose next POST response body fails with a network error after `events` SSE events, as
 * a dropped connection does; other requests go to `route(url)` (another process, for example).
 */
export function flakyFetch(options: { route?: (url: string) => string } = {}) {
  let cutAfter: number | undefined;
  const fetcher = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = options.route ? options.route(String(input)) : String(input);
    const response = await fetch(url, init);
    const limit = init?.method === 'POST' ? cutAfter : undefined;
    if (limit === undefined || !response.body) return response;
    cutAfter = undefined;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let seen = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (seen >= limit) {
          void reader.cancel();
          controller.error(new TypeError('network error'));
          return;
        }
        const next = await reader.read();
        if (next.done) return controller.close();
        seen += decoder.decode(next.value, { stream: true }).split('\n\n').length - 1;
        controller.enqueue(next.value);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return {
    fetch: fetcher as typeof globalThis.fetch,
    /** Drops the next POST response after `events` SSE events. */
    cutNext(events: number) {
      cutAfter = events;
    },
  };
}
