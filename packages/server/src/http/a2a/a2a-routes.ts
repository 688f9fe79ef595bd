import {
  A2A_VERSION_HEADER,
  A2aError,
  type A2aRpcRequest,
  type A2aVersion,
  agentCard,
  readA2aVersion,
  readCancelTaskParams,
  readGetTaskParams,
  readListTasksParams,
  readRpcRequest,
  readSendParams,
  readSubscribeParams,
  rpcErrorResponse,
  rpcIdOf,
  rpcResultResponse,
  sendResult,
  taskResult,
} from '@awaken/protocol-a2a';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { A2aAgentInfo, A2aOptions } from './a2a-agents';
import { type TaskFlow, a2aErrorOf, continueTask, startTask, subscribeTask } from './a2a-turns';
import { drain, taskStreamResponse } from './a2a-stream';
import { cancelTask, listTasks, loadRun, taskOf } from './a2a-tasks';
import { varyOnA2aVersion } from './vary-on-a2a-version';
import { errorBody } from '../error-table';
import type { HttpEnv } from '../http-types';
import { idHeaders } from '../internal/id-headers';
import { capStreams } from '../middleware/cap-streams';
import { missingScope } from '../middleware/require-scope';
import type { StreamSlots } from '../sse/stream-slots';

export interface A2aRouteOptions extends A2aOptions {
  keepAliveMs: number;
  /** The app's per-tenant stream slots: an A2A stream takes one like every event stream. */
  slots: StreamSlots;
}

const CARD_PATHS = ['agent-card.json', 'agent.json'];

function agentOf(options: A2aRouteOptions, agentId: string | undefined): A2aAgentInfo | undefined {
  const id = agentId ?? options.defaultAgentId ?? options.agents[0]?.id;
  return options.agents.find((agent) => agent.id === id);
}

function cardResponse(c: Context<HttpEnv>, agent: A2aAgentInfo, endpoint: string, bearer: boolean) {
  let version: A2aVersion;
  try {
    version = readA2aVersion(c.req.header(A2A_VERSION_HEADER));
  } catch (error) {
    return c.json(errorBody('validation_failed', (error as Error).message), 400);
  }
  const url = `${new URL(c.req.url).origin}${endpoint}`;
  const card = agentCard(
    {
      name: agent.name ?? agent.id,
      description: agent.description ?? `The ${agent.id} agent`,
      url,
      skills: agent.skills ?? [],
      bearer,
      ...(agent.version ? { version: agent.version } : {}),
    },
    version,
  );
  return c.json(card, 200);
}

async function dispatch(
  c: Context<HttpEnv>,
  agent: A2aAgentInfo,
  scoped: boolean,
  request: A2aRpcRequest,
  options: A2aRouteOptions,
): Promise<Response> {
  const { service } = c.var;
  const { id, version, params } = request;
  // an agent's own endpoint sees only that agent's tasks; the default endpoint sees the tenant's
  const only = scoped ? agent.id : undefined;
  const stream = (flow: TaskFlow) =>
    taskStreamResponse(
      service,
      flow,
      { id, version },
      {
        keepAliveMs: options.keepAliveMs,
        log: c.var.log,
        signal: c.req.raw.signal,
        headers: idHeaders({ threadId: flow.snapshot.contextId, runId: flow.runId }),
      },
    );
  switch (request.operation) {
    case 'send':
    case 'stream': {
      const send = readSendParams(params, version);
      if (send.message.taskId) {
        // a message on an existing task answers its tickets: that is deciding, as on /v1/…/decision
        const refused = missingScope(c, 'decide');
        if (refused) return refused;
      }
      const flow = send.message.taskId
        ? await continueTask(c, send, only)
        : await startTask(c, agent.id, send);
      if (request.operation === 'stream') return stream(flow);
      if (send.returnImmediately) return c.json(rpcResultResponse(id, sendResult(flow.snapshot, version)));
      await drain(service, flow, c.req.raw.signal);
      const record = await loadRun(service, flow.runId);
      const task = await taskOf(service, record, send.historyLength);
      return c.json(rpcResultResponse(id, sendResult(task, version)));
    }
    case 'get': {
      const { id: taskId, historyLength } = readGetTaskParams(params);
      const task = await taskOf(service, await loadRun(service, taskId, only), historyLength);
      return c.json(rpcResultResponse(id, taskResult(task, version)));
    }
    case 'list': {
      const listed = await listTasks(service, readListTasksParams(params), only);
      return c.json(rpcResultResponse(id, listed));
    }
    case 'cancel': {
      const task = await cancelTask(service, readCancelTaskParams(params).id, only);
      return c.json(rpcResultResponse(id, taskResult(task, version)));
    }
    case 'subscribe':
      return stream(await subscribeTask(c, readSubscribeParams(params).id, only));
    case 'push_config':
      throw new A2aError('push_notification_not_supported', 'push notifications are not supported');
    case 'extended_card':
      throw new A2aError('extended_card_not_configured', 'this agent has no extended agent card');
  }
}

async function rpcResponse(
  c: Context<HttpEnv>,
  agentId: string | undefined,
  options: A2aRouteOptions,
): Promise<Response> {
  const agent = agentOf(options, agentId);
  if (!agent) return c.json(errorBody('not_found', `no A2A agent ${agentId ?? '(default)'}`), 404);
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return c.json(rpcErrorResponse(null, new A2aError('parse_error', 'the body is not valid JSON')));
  }
  const id = rpcIdOf(body);
  try {
    const request = readRpcRequest(body, readA2aVersion(c.req.header(A2A_VERSION_HEADER)));
    return await dispatch(c, agent, agentId !== undefined, request, options);
  } catch (error) {
    const mapped = a2aErrorOf(error);
    if (mapped instanceof A2aError) return c.json(rpcErrorResponse(id, mapped));
    c.var.log.error({ err: error }, 'a2a request failed');
    return c.json(rpcErrorResponse(id, new A2aError('internal_error', 'internal error')));
  }
}

/**
 * An A2A request that answers with a stream: `SendStreamingMessage` or `SubscribeToTask` (v0.3
 * `message/stream`, `tasks/resubscribe`), whatever its `Accept` header says — the method makes the
 * stream, so a client that leaves the header out takes a slot like the SDK does. The parsed body is
 * cached for the route; a body that is no JSON-RPC request is left to the route to refuse.
 */
async function streamsByMethod(c: Context<HttpEnv>): Promise<boolean> {
  if (c.req.method !== 'POST') return false;
  try {
    const { operation } = readRpcRequest(
      await c.req.json(),
      readA2aVersion(c.req.header(A2A_VERSION_HEADER)),
    );
    return operation === 'stream' || operation === 'subscribe';
  } catch {
    return false;
  }
}

/**
 * The A2A v1.0 JSON-RPC binding (v0.3 method names and shapes too): `POST /v1/a2a` (the default
 * agent) and `POST /v1/a2a/agents/{agentId}`, behind the API's bearer tokens like every `/v1` route
 * (another tenant's task is `TaskNotFound`); agent cards at `/.well-known/agent-card.json` and the
 * deprecated `/.well-known/agent.json` (the default agent, public) and under
 * `/v1/a2a/agents/{agentId}/.well-known/`, in the v1.0 or v0.3 shape the `A2A-Version` header asks
 * for (absent: v0.3, for the card and the methods alike; `Vary: A2A-Version` on every answer).
 * contextId = thread id, task id = run id.
 */
export function registerA2aRoutes(app: OpenAPIHono<HttpEnv>, options: A2aRouteOptions): void {
  const bearer = true;
  for (const path of ['/v1/a2a', '/v1/a2a/agents/:agentId'])
    app.use(path, varyOnA2aVersion, capStreams(options.slots, streamsByMethod));
  for (const file of CARD_PATHS) {
    app.use(`/.well-known/${file}`, varyOnA2aVersion);
    app.use(`/v1/a2a/agents/:agentId/.well-known/${file}`, varyOnA2aVersion);
    app.get(`/.well-known/${file}`, (c) => {
      const agent = agentOf(options, undefined);
      if (!agent) return c.json(errorBody('not_found', 'no A2A agent is configured'), 404);
      return cardResponse(c, agent, '/v1/a2a', bearer);
    });
    app.get(`/v1/a2a/agents/:agentId/.well-known/${file}`, (c) => {
      const agentId = c.req.param('agentId');
      const agent = agentOf(options, agentId);
      if (!agent) return c.json(errorBody('not_found', `no A2A agent ${agentId}`), 404);
      return cardResponse(c, agent, `/v1/a2a/agents/${encodeURIComponent(agentId)}`, bearer);
    });
  }
  app.post('/v1/a2a', (c) => rpcResponse(c, undefined, options));
  app.post('/v1/a2a/agents/:agentId', (c) => rpcResponse(c, c.req.param('agentId'), options));
}
