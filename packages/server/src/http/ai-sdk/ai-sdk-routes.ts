import { AwakenError } from '@awaken/contract';
import {
  UI_MESSAGE_STREAM_HEADERS,
  type UiMessageChunk,
  encodeUiMessageStream,
  parseChatRequest,
  readChatTurn,
  toUiMessageSseStream,
} from '@awaken/protocol-ai-sdk';
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { replayRun } from './ai-sdk-stream';
import { NothingToDo, continueTurn, startTurn } from './ai-sdk-turns';
import { errorBody } from '../error-table';
import type { HttpEnv } from '../http-types';
import { activeRunOrNone, stopActiveRun } from '../internal/active-run';
import { idHeaders } from '../internal/id-headers';
import { missingScope } from '../middleware/require-scope';
import { apiRoutes } from '../schemas/api-routes';
import { agentParamsSchema, conflictError, eventStream, idSchema, jsonBody } from '../schemas/common-schemas';
import { stoppedRunResponse } from '../schemas/resource-schemas';
import { sseResponse } from '../sse/sse-response';

const route = apiRoutes(['AI SDK (useChat)']);

const chatBodySchema = z
  .looseObject({
    id: idSchema.openapi({ description: 'The chat id: the thread id' }),
    messages: z.array(z.looseObject({})).openapi({ description: 'The full UIMessage history' }),
    trigger: z.enum(['submit-message', 'regenerate-message']),
    messageId: z.string().optional(),
    agentId: z.string().optional().openapi({ description: 'The agent (on /v1/ai-sdk/chat only)' }),
    ifBusy: z.enum(['interrupt', 'queue', 'conflict']).optional(),
    threadId: idSchema.optional().openapi({
      description:
        'The thread to continue when it is not the chat id: a branch a `data-awaken-thread` part named (after a regenerate or an edit)',
    }),
  })
  .openapi('AiSdkChatRequest');

const uiMessageStream = eventStream(
  'The AI SDK v6 UI message stream (SSE: one `data:` chunk per event, then `data: [DONE]`)',
);
const chatParams = z.object({ id: idSchema.openapi({ param: { name: 'id', in: 'path' } }) });
const chatResponses = { 200: uiMessageStream, ...conflictError };

const chat = route.post('/v1/ai-sdk/chat', {
  summary:
    "useChat's endpoint (DefaultChatTransport): a new message, a regenerate, or decisions in tool parts",
  request: { body: jsonBody(chatBodySchema) },
  responses: chatResponses,
});
const agentChat = route.post('/v1/ai-sdk/agents/{agentId}/chat', {
  summary: 'The same, bound to one agent',
  request: { params: agentParamsSchema, body: jsonBody(chatBodySchema) },
  responses: chatResponses,
});
const resume = route.get('/v1/ai-sdk/chat/{id}/stream', {
  summary: "resumeStream(): the chat's executing run from its first event (any process); 204 when none",
  request: { params: chatParams },
  responses: { 200: uiMessageStream, 204: { description: 'Nothing runs' } },
});
const cancel = route.post('/v1/ai-sdk/chat/{id}/cancel', {
  summary:
    "Stop the chat's executing or waiting run (call it with the chat's stop(); a disconnect alone never cancels)",
  request: { params: chatParams },
  responses: {
    200: stoppedRunResponse('chat'),
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
    threadId: c.var.ids.threadId ?? request.id,
    ...(c.var.ids.runId ? { runId: c.var.ids.runId } : {}),
  });
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
    const view = await activeRunOrNone(c, id);
    if (view?.kind !== 'active') return c.body(null, 204) as never;
    c.var.ids.runId = view.runId;
    const events = replayRun(c.var.service, view.runId, c.req.raw.signal);
    const chunks = encodeUiMessageStream(events, { messageId: view.runId });
    return chatStreamResponse(chunks, options, { threadId: id, runId: view.runId }) as never;
  });

  app.openapi(cancel, async (c) => {
    const stopped = await stopActiveRun(c, c.req.valid('param').id, { reason: 'stopped from the chat' });
    return c.json(stopped, 200);
  });
}
