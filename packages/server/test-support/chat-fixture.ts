import { createMemoryStores } from '@awaken/store-memory';
import { pino } from 'pino';
import { createMailboxService } from '../src/create-mailbox-service';
import { createHttpApp } from '../src/http/create-http-app';
import type { MailboxService, ServiceStores } from '../src/types';
import { type Counters, memoryCounters } from './counters';
import { AGENT_ID, scenarioAgent } from './scenario-agent';

/** The chat route of the scenario agent. */
export const CHAT = `/v1/ai-sdk/agents/${AGENT_ID}/chat`;

/** One UI message stream response, parsed: its chunks, how many `[DONE]`s, its status. */
export interface ChatResponse {
  status: number;
  chunks: Array<Record<string, any>>;
  done: number;
  error?: { code: string; message: string };
}

export async function readChat(response: Response): Promise<ChatResponse> {
  const text = await response.text();
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { status: response.status, chunks: [], done: 0, error: JSON.parse(text).error };
  }
  const chunks: ChatResponse['chunks'] = [];
  let done = 0;
  for (const event of text.split('\n\n')) {
    if (!event.startsWith('data: ')) continue;
    const data = event.slice('data: '.length);
    if (data === '[DONE]') done += 1;
    else chunks.push(JSON.parse(data));
  }
  return { status: response.status, chunks, done };
}

export function userMessage(text: string, id = 'u1') {
  return { id, role: 'user', parts: [{ type: 'text', text }] };
}

/** What turn 1 of a chat left waiting: the assistant message id and the asked calls. */
export interface AskedTurn {
  chatId: string;
  text: string;
  messageId: string;
  calls: Array<{ toolCallId: string; toolName: string; input: unknown; approvalId?: string }>;
}

export function askedTurn(chatId: string, text: string, response: ChatResponse): AskedTurn {
  const approvals = new Map(
    response.chunks
      .filter((chunk) => chunk.type === 'tool-approval-request')
      .map((chunk) => [chunk.toolCallId, chunk.approvalId]),
  );
  return {
    chatId,
    text,
    messageId: String(response.chunks[0]?.messageId),
    calls: response.chunks
      .filter((chunk) => chunk.type === 'tool-input-available')
      .map((chunk) => ({
        toolCallId: chunk.toolCallId,
        toolName: chunk.toolName,
        input: chunk.input,
        ...(approvals.has(chunk.toolCallId) ? { approvalId: approvals.get(chunk.toolCallId) } : {}),
      })),
  };
}

/** The tool part of an asked call as the client sends it back, approved or denied. */
export function approvalPart(call: AskedTurn['calls'][number], approved: boolean, reason?: string) {
  return {
    type: `tool-${call.toolName}`,
    toolCallId: call.toolCallId,
    state: 'approval-responded',
    input: call.input,
    approval: { id: call.approvalId, approved, ...(reason === undefined ? {} : { reason }) },
  };
}

/** The body of a continuation of `turn` whose assistant message carries `parts`. */
export function continuation(turn: AskedTurn, parts: unknown[]) {
  return {
    id: turn.chatId,
    trigger: 'submit-message',
    messageId: turn.messageId,
    messages: [userMessage(turn.text), { id: turn.messageId, role: 'assistant', parts }],
  };
}

export interface ChatFixture {
  stores: ServiceStores;
  counters: Counters;
  /** The service behind the HTTP app. */
  service: MailboxService;
  /** A POST; abort `signal` to drop the connection (the route stops following the run). */
  post(path: string, body: unknown, signal?: AbortSignal): Promise<Response>;
  get(path: string): Promise<Response>;
  /**
   * A continuation's answer without reading its stream: the status and the error of a refused one;
   * an accepted one's connection is dropped at once (which never cancels the run).
   */
  send(body: unknown): Promise<{ status: number; error?: { code: string; message: string } }>;
  /** Starts a chat: turn 1 read to its end. */
  ask(chatId: string, text: string): Promise<AskedTurn>;
  close(): Promise<void>;
}

/**
 * The HTTP app over one service of the scenario agent on memory stores. With `workers: 0` the
 * service runs only what a request runs in the foreground (turn 1) and keeps no hot copy of a waiting
 * run: a decision is stored and its resume queued, but nothing takes it until a worker service is
 * started on the same stores.
 */
export async function createChatFixture(options: { workers?: number } = {}): Promise<ChatFixture> {
  const stores = createMemoryStores();
  const counters = memoryCounters();
  const services: MailboxService[] = [];
  const service = createMailboxService({
    agents: [scenarioAgent(counters)],
    stores,
    concurrency: options.workers ?? 2,
    // without workers nothing may take a resume: not even this process's hot copy of the run
    ...(options.workers === 0 ? { hotCacheSize: 0 } : {}),
    leaseMs: 2_000,
    idleWaitMs: 50,
  });
  services.push(service);
  await service.start();
  const http = createHttpApp({ tenants: { default: service }, logger: pino({ level: 'silent' }) });
  const post = (path: string, body: unknown, signal?: AbortSignal) =>
    Promise.resolve(
      http.app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
        ...(signal ? { signal } : {}),
      }),
    );
  return {
    stores,
    counters,
    service,
    post,
    get: (path) => Promise.resolve(http.app.request(path)),
    async send(body) {
      const connection = new AbortController();
      const response = await post(CHAT, body, connection.signal);
      if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
        connection.abort();
        return { status: response.status };
      }
      return { status: response.status, error: (await response.json()).error };
    },
    async ask(chatId, text) {
      const response = await readChat(
        await post(CHAT, { id: chatId, trigger: 'submit-message', messages: [userMessage(text)] }),
      );
      if (response.status !== 200) throw new Error(`turn 1: ${JSON.stringify(response)}`);
      return askedTurn(chatId, text, response);
    },
    async close() {
      await Promise.all(services.map((each) => each.stop({ graceMs: 1_000 })));
    },
  };
}
