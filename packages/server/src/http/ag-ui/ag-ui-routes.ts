import { AwakenError } from '@awaken/contract';
import {
  AG_UI_STREAM_HEADERS,
  type AgUiEvent,
  parseRunAgentInput,
  toAgUiSseStream,
} from '@awaken/protocol-ag-ui';
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { agUiConnect } from './ag-ui-stream';
import { agUiTurn, checkRunAgent } from './ag-ui-turns';
import type { HttpEnv } from '../http-types';
import { stopActiveRun } from '../internal/active-run';
import { idHeaders } from '../internal/id-headers';
import { apiRoutes } from '../schemas/api-routes';
import { agentParamsSchema, conflictError, eventStream, idSchema, jsonBody } from '../schemas/common-schemas';
import { stoppedRunResponse } from '../schemas/resource-schemas';
import { sseResponse } from '../sse/sse-response';

const route = apiRoutes(['AG-UI (HttpAgent, CopilotKit)']);

const runAgentInput = z
  .looseObject({
    threadId: idSchema.openapi({ description: 'The AG-UI thread: the Awaken thread id' }),
    runId: idSchema,
    messages: z.array(z.looseObject({})).openapi({ description: "The client's copy of the thread" }),
    tools: z.array(z.looseObject({})).optional().openapi({ description: 'Frontend tools' }),
    resume: z.array(z.looseObject({})).optional().openapi({ description: 'Answers to the interrupts' }),
  })
  .openapi('AgUiRunAgentInput');
const connectInput = z.looseObject({ threadId: idSchema }).openapi('AgUiConnectInput');

const agUiEvents = eventStream('AG-UI 1.0 events (SSE, one `data:` JSON event each, LF framing, no [DONE])');
const stopped = stoppedRunResponse('thread');

function routes(prefix: string, withAgent: boolean) {
  const request = (body: z.ZodType) => ({
    ...(withAgent ? { params: agentParamsSchema } : {}),
    body: jsonBody(body),
  });
  return {
    run: route.post(`${prefix}/run`, {
      summary: 'HttpAgent.runAgent(): a new message, or answers to interrupts (resume[]) and frontend tools',
      request: request(runAgentInput),
      responses: { 200: agUiEvents, ...conflictError },
    }),
    connect: route.post(`${prefix}/connect`, {
      summary:
        "AwakenAgent.connectAgent(): the thread's working or waiting run, replayed from the event log, then live",
      request: request(connectInput),
      responses: { 200: agUiEvents },
    }),
    stop: route.post(`${prefix}/stop`, {
      summary: "Cancels the thread's executing or waiting run",
      request: request(connectInput),
      responses: { 200: stopped },
    }),
  };
}

export interface AgUiRouteOptions {
  /** The agent of `/v1/ag-ui/run`. */
  defaultAgentId?: string;
  keepAliveMs: number;
}

/** AG-UI events with AG-UI's headers and the thread's (and run's, once known) id headers. */
function agUiStreamResponse(
  c: Context<HttpEnv>,
  threadId: string,
  events: AsyncIterable<AgUiEvent>,
  options: AgUiRouteOptions,
) {
  const body = toAgUiSseStream(events, { keepAliveMs: options.keepAliveMs });
  const { runId } = c.var.ids;
  return sseResponse(body, {
    ...AG_UI_STREAM_HEADERS,
    ...idHeaders({ threadId, ...(runId ? { runId } : {}) }),
  });
}

async function runResponse(c: Context<HttpEnv>, agentId: string | undefined, options: AgUiRouteOptions) {
  const input = parseRunAgentInput(await c.req.json());
  c.var.ids.threadId = input.threadId;
  if (!agentId)
    throw new AwakenError(
      'validation_failed',
      'agentId: this server has no default agent: use /v1/ag-ui/agents/{agentId}/run',
    );
  return agUiStreamResponse(c, input.threadId, await agUiTurn(c, input, agentId), options);
}

async function connectResponse(
  c: Context<HttpEnv>,
  threadId: string,
  agentId: string | undefined,
  options: AgUiRouteOptions,
) {
  c.var.ids.threadId = threadId;
  return agUiStreamResponse(c, threadId, await agUiConnect(c, threadId, agentId), options);
}

async function stopResponse(c: Context<HttpEnv>, threadId: string, agentId: string | undefined) {
  const stopped = await stopActiveRun(c, threadId, {
    reason: 'stopped from an AG-UI client',
    check: (record) => checkRunAgent(record, agentId),
  });
  return c.json(stopped, 200);
}

/**
 * The AG-UI 1.0 endpoints (`@ag-ui/client` `HttpAgent`, CopilotKit through it):
 * `POST /v1/ag-ui/agents/{agentId}/run` (and `/v1/ag-ui/run` for the default agent) taking
 * `RunAgentInput`, `…/connect` (durable reconnect) and `…/stop`. The AG-UI `threadId` is the Awaken
 * thread id. Bad input is a 4xx JSON error before the stream starts, a `RUN_ERROR` event after.
 */
export function registerAgUiRoutes(app: OpenAPIHono<HttpEnv>, options: AgUiRouteOptions): void {
  for (const withAgent of [true, false]) {
    const route = routes(withAgent ? '/v1/ag-ui/agents/{agentId}' : '/v1/ag-ui', withAgent);
    const agentOf = (c: Context<HttpEnv>) => (withAgent ? c.req.param('agentId') : options.defaultAgentId);
    const threadOf = async (c: Context<HttpEnv>) => connectInput.parse(await c.req.json()).threadId;
    app.openapi(
      route.run,
      async (c) => (await runResponse(c as never, agentOf(c as never), options)) as never,
    );
    app.openapi(
      route.connect,
      async (c) =>
        (await connectResponse(
          c as never,
          await threadOf(c as never),
          agentOf(c as never),
          options,
        )) as never,
    );
    app.openapi(
      route.stop,
      async (c) => (await stopResponse(c as never, await threadOf(c as never), agentOf(c as never))) as never,
    );
  }
}
