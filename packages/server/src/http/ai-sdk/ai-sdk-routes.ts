import { AwakenError } from '@awaken/contract';
import {
  UI_MESSAGE_STREAM_HEADERS,
  type UiMessageChunk,
  encodeUiMessageStream,
  parseChatRequest,
  readChatTurn,
  toUiMessageSseStream,
} from '@awaken/protocol-ai-sdk';
import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { replayRun } from './ai-sdk-stream';
import { NothingToDo, continueTurn, startTurn } from './ai-sdk-turns';
import { errorBody } from '../error-table';
import type { HttpEnv } from '../http-types';
import { idHeaders } from '../internal/id-headers';
import { missingScope } from '../middleware/require-scope';
import { commonErrors, conflictError, idSchema, json, jsonBody } from '../schemas/common-schemas';
import { sseResponse } from '../sse/sse-response';

const tags = ['AI SDK (useChat)'];

const chatBodySchema = z
  .looseObject({
    id: idSchema.openapi({ description: 'The chat id: the thread id' }),
    messages: z.array(z.looseObject({})).openapi({ description: 'The full UIMessage history' }),
    trigger: z.enum(['submit-message', 'regenerate-message']),
    messageId: z.string().optional(),
    agentId: z.string().optional().openapi({ description: 'The agent (on /v1/ai-sdk/chat only)' }),
    ifBusy: z.enum(['interrupt', 'queue', 'conflict']).optional(),
  })
  .openapi('AiSdkChatRequest');

const uiMessageStream = {
  description: 'The AI SDK v6 UI message stream (SSE: one `data:` chunk per event, then `data: [DONE]`)',
  content: { 'text/event-stream': { schema: z.string() } },
};
const chatParams = z.object({ id: idSchema.openapi({ param: { name: 'id', in: 'path' } }) });
const agentParams = z.object({ agentId: idSchema.openapi({ param: { name: 'agentId', in: 'path' } }) });
const chatResponses = { 200: uiMessageStream, ...commonErrors, ...conflictError };

const chat = createRoute({
  method: 'post',
  path: '/v1/ai-sdk/chat',
  tags,
  summary:
    "useChat's endpoint (DefaultChatTransport): a new message, a regenerate, or decisions in tool parts",
  request: { body: jsonBody(chatBodySchema) },
  responses: chatResponses,
});
const agentChat = createRoute({
  method: 'post',
  path: '/v1/ai-sdk/agents/{agentId}/chat',
  tags,
  summary: 'The same, bound to one agent',
  request: { params: agentParams, body: jsonBody(chatBodySchema) },
  responses: chatResponses,
});
const resume = createRoute({
  method: 'get',
  path: '/v1/ai-sdk/chat/{id}/stream',
  tags,
  summary: "resumeStream(): the chat's executing run from its first event (any process); 204 when none",
  request: { params: chatParams },
  responses: { 200: uiMessageStream, 204: { description: 'Nothing runs' }, ...commonErrors },
});
const cancel = createRoute({
  method: 'post',
  path: '/v1/ai-sdk/chat/{id}/cancel',
  tags,
  summary:
    "Stop the chat's executing or waiting run (call it with the chat's stop(); a disconnect alone never cancels)",
  request: { params: chatParams },
  responses: {
    200: json(
      z.object({ runId: z.string().nullable(), status: z.string().nullable() }),
      'The stopped run (both null when nothing ran); an unknown chat is a 404',
    ),
    ...commonErrors,
  },
});

export interface AiSdkRouteOptions {
  /** The agent of `/v1/ai-sdk/chat` when the body names none. */
  defaultAgentId?: string;
  keepAliveMs: number;
}

/** A UI message stream with the AI SDK's own headers (`x-vercel-ai-ui-message-stream: v1`). */
function chatStreamResponse(
  chunks: AsyncIterable<UiMessageChunk>,
  options: AiSdkRouteOptions,
  ids: { threadId: string; runId?: string },
): Response {
  const body = toUiMessageSseStream(chunks, { keepAliveMs: options.keepAliveMs });
  return sseResponse(body, { ...UI_MESSAGE_STREAM_HEADERS, ...idHeaders(ids) });
}

async function chatResponse(c: Context<HttpEnv>, agentId: string | undefined, options: AiSdkRouteOptions) {
  const request = parseChatRequest(await c.req.json());
  c.var.ids.threadId = request.id;
  let chunks: AsyncIterable<UiMessageChunk>;
  try {
    const turn = readChatTurn(request);
    if (turn.type === 'continue') {
      // answering approvals is deciding
      const refused = missingScope(c, 'decide');
      if (refused) return refused;
      chunks = await continueTurn(c, request, turn);
    } else {
      const agent = agentId ?? options.defaultAgentId;
      if (!agent)
        throw new AwakenError('validation_failed', 'agentId: name the agent in the body or the path');
      chunks = await startTurn(c, request, turn, agent);
    }
  } catch (error) {
    // a request with nothing new (nothing answered, only rejected proposals, no message) is a 400
    if (error instanceof NothingToDo) {
      const rejected = (error.details?.rejected ?? []) as Array<{ reason?: string }>;
      if (rejected.length > 0 && rejected.every((entry) => entry.reason === 'self_approval_forbidden'))
        return c.json(errorBody('self_approval_forbidden', error.message, error.details), 403);
      return c.json(errorBody('validation_failed', error.message, error.details), 400);
    }
    if (AwakenError.hasCode(error, 'validation_failed'))
      return c.json(errorBody('validation_failed', error.message, error.details), 400);
    throw error;
  }
  return chatStreamResponse(chunks, options, {
    threadId: request.id,
    ...(c.var.ids.runId ? { runId: c.var.ids.runId } : {}),
  });
}

async function activeRunOf(c: Context<HttpEnv>, chatId: string) {
  try {
    return await c.var.service.commands.getActiveRun(chatId);
  } catch (error) {
    if (AwakenError.hasCode(error, 'not_found')) return null;
    throw error;
  }
}

/**
 * The routes `useChat` talks to (AI SDK v6 UI message stream): `POST /v1/ai-sdk/chat` (agent in the
 * body), `POST /v1/ai-sdk/agents/{agentId}/chat`, `GET /v1/ai-sdk/chat/{id}/stream` for
 * `resumeStream()`, and `POST /v1/ai-sdk/chat/{id}/cancel`, the explicit stop. The chat id is the
 * thread id; the assistant message id is the run id.
 */
export function registerAiSdkRoutes(app: OpenAPIHono<HttpEnv>, options: AiSdkRouteOptions): void {
  app.openapi(chat, async (c) => {
    const agentId = c.req.valid('json').agentId;
    return (await chatResponse(c, agentId, options)) as never;
  });

  app.openapi(
    agentChat,
    async (c) => (await chatResponse(c, c.req.valid('param').agentId, options)) as never,
  );

  app.openapi(resume, async (c) => {
    const { id } = c.req.valid('param');
    c.var.ids.threadId = id;
    const view = await activeRunOf(c, id);
    if (view?.kind !== 'active') return c.body(null, 204) as never;
    c.var.ids.runId = view.runId;
    const events = replayRun(c.var.service, view.runId, c.req.raw.signal);
    const chunks = encodeUiMessageStream(events, { messageId: view.runId });
    return chatStreamResponse(chunks, options, { threadId: id, runId: view.runId }) as never;
  });

  app.openapi(cancel, async (c) => {
    const { id } = c.req.valid('param');
    c.var.ids.threadId = id;
    // an unknown chat is a 404 (as every unknown id); a chat with nothing to stop names no run
    const view = await c.var.service.commands.getActiveRun(id);
    if (!view) return c.json({ runId: null, status: null }, 200);
    c.var.ids.runId = view.runId;
    const record = await c.var.service.commands.cancelRun(view.runId, 'stopped from the chat');
    return c.json({ runId: record.runId, status: record.status }, 200);
  });
}
