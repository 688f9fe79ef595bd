import {
  APPROVAL_PAYLOAD_JSON_SCHEMA,
  type ApprovalPayload,
  type NestedQuestion,
  type Tool,
  type ToolExecuteContext,
  type ToolResult,
  readApproval,
  toolFailure,
  toolPending,
  toolSuccess,
} from '@awaken/contract';
import { z } from 'zod';
import { APPROVAL_REQUEST_TYPE } from '../encode/input-required-message';
import type { A2aStreamResponse, A2aTask } from '../wire/a2a-types';
import { A2aRemoteError, A2aRpcClient } from './a2a-rpc-client';
import { RemoteTask } from './remote-task';

export interface A2aAgentToolOptions {
  /** The remote agent's base URL (its card is `${url}/.well-known/agent-card.json`). */
  url: string;
  /** Sent with every request to the remote agent, e.g. `{ authorization: 'Bearer …' }`. */
  headers?: Record<string, string>;
  /** The tool name the model calls. Default `a2a_agent`. */
  name?: string;
  description?: string;
  fetch?: typeof fetch;
}

/** What the call returns once the remote task completed. */
export interface A2aAgentToolOutput {
  taskId: string;
  contextId: string;
  /** The text of the remote task's artifacts. */
  text: string;
  /** The data parts of its artifacts (e.g. its tool results). */
  data: unknown[];
}

/** The action of the tickets a remote approval becomes. */
export const REMOTE_APPROVAL_ACTION = 'a2a:remote_approval';

const parameters = z.object({ message: z.string().min(1).describe('What to ask the remote agent') });

/**
 * The remote context of a call: derived from our run and tool call ids, so a re-executed call (a
 * crash, a restart, a replay after a decision) finds its remote task instead of starting another.
 */
export function remoteContextIdOf(context: Pick<ToolExecuteContext, 'runId' | 'toolCallId'>): string {
  return `awaken-${context.runId}-${context.toolCallId}`;
}

async function findRemoteTask(client: A2aRpcClient, contextId: string, signal: AbortSignal) {
  try {
    const listed = await client.call<{ tasks?: A2aTask[] }>('ListTasks', { contextId, pageSize: 1 }, signal);
    return listed.tasks?.[0];
  } catch (error) {
    // a remote without ListTasks cannot be asked: the call starts its task
    if (error instanceof A2aRemoteError && error.code === -32601) return undefined;
    throw error;
  }
}

async function follow(remote: RemoteTask, events: AsyncIterable<A2aStreamResponse>): Promise<RemoteTask> {
  for await (const event of events) remote.apply(event);
  return remote;
}

/**
 * Who asks, as a nested question names it: the remote tool call behind the remote ticket — or, when
 * the remote agent relays its own sub-agent's question (`request.nested`), that inner call.
 */
function nestedOf(
  remote: RemoteTask,
  request: Record<string, unknown>,
  agentPath: readonly string[],
): NestedQuestion {
  const { id: taskId } = remote.task;
  const inner = request.nested as { toolName?: unknown; input?: unknown } | null | undefined;
  const asked =
    inner && typeof inner === 'object' && typeof inner.toolName === 'string'
      ? { toolName: inner.toolName, input: inner.input }
      : { toolName: request.toolName, input: request.input };
  return {
    runId: taskId,
    ticketId: String(request.approvalId),
    toolCallId:
      typeof request.toolCallId === 'string' && request.toolCallId
        ? request.toolCallId
        : String(request.approvalId),
    toolName: typeof asked.toolName === 'string' ? asked.toolName : 'unknown',
    ...(asked.input === undefined || asked.input === null ? {} : { arguments: asked.input }),
    agentPath: [...agentPath],
  };
}

function outcomeOf(remote: RemoteTask, url: string, agentPath: readonly string[]): ToolResult {
  const { id: taskId, contextId } = remote.task;
  if (remote.state === 'TASK_STATE_COMPLETED') {
    const output: A2aAgentToolOutput = { taskId, contextId, text: remote.text(), data: remote.data() };
    return toolSuccess(output);
  }
  if (remote.state === 'TASK_STATE_INPUT_REQUIRED') {
    const { text, requests } = remote.question();
    const request = requests.find((entry) => entry.type === APPROVAL_REQUEST_TYPE);
    if (!request)
      return toolFailure(
        `the remote agent asks for input this tool cannot forward: ${text || 'no question given'}`,
      );
    return toolPending(
      {
        id: `a2a:${taskId}:${String(request.approvalId)}`,
        action: REMOTE_APPROVAL_ACTION,
        message: text || `The remote agent at ${url} asks for an approval`,
        parameters: { remote: { url, taskId, contextId }, request },
        responseSchema: APPROVAL_PAYLOAD_JSON_SCHEMA,
        nested: nestedOf(remote, request, agentPath),
      },
      'replay_tool_call',
    );
  }
  const why = remote.question().text;
  return toolFailure(`the remote task ${taskId} ended ${remote.state}${why ? `: ${why}` : ''}`);
}

/**
 * The answer a replayed call forwards: the approval payload of a `resume`, or a refusal for a
 * `cancel` (a denial through any door), with the decision's reason.
 */
function answerOf(context: ToolExecuteContext): ApprovalPayload | undefined {
  const resume = context.resume;
  if (!resume) return undefined;
  if (resume.action === 'cancel') {
    const reason = readApproval(resume.result)?.reason ?? resume.reason;
    return { approved: false, ...(reason === undefined ? {} : { reason }) };
  }
  return readApproval(resume.result);
}

/**
 * A remote A2A agent as a tool. A call sends the model's message to the remote agent and streams its
 * task. When the remote task asks for an approval (`input-required` with a `tool-approval-request`
 * data part), **our** call suspends with a ticket carrying the remote question (approve it through any
 * protocol); an approval replays the call, which forwards it to the same remote task and returns the
 * remote result once it completes. The remote context id is derived from the call, so a call
 * executed again after a crash or restart finds the same remote task (`ListTasks`) and continues it —
 * it subscribes while the task works — instead of starting a second one. The ticket is nested
 * (`suspension.nested`: the remote task, its approval id, the remote tool and its input, and the agent
 * path ending with this tool's name), so every answer — an approval, edited arguments, a denial or a
 * cancel — replays our call, which forwards it to the remote task: a denial reaches the remote agent
 * (its task goes on with the refusal) instead of leaving it `input-required`.
 */
export function a2aAgentTool(options: A2aAgentToolOptions): Tool<z.infer<typeof parameters>> {
  const client = new A2aRpcClient({
    url: options.url,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const name = options.name ?? 'a2a_agent';
  const pathOf = (context: ToolExecuteContext) => [...(context.agentPath ?? []), name];
  return {
    name,
    description: options.description ?? `Ask the remote A2A agent at ${options.url}`,
    parameters,
    async execute(args, context) {
      const { signal } = context;
      const contextId = remoteContextIdOf(context);
      const found = await findRemoteTask(client, contextId, signal);
      if (!found) {
        const message = {
          messageId: `${contextId}-ask`,
          contextId,
          role: 'ROLE_USER',
          parts: [{ text: args.message }],
        };
        const events = client.stream('SendStreamingMessage', { message }, signal);
        const remote = new RemoteTask({ id: '', contextId, status: { state: 'TASK_STATE_SUBMITTED' } });
        return outcomeOf(await follow(remote, events), options.url, pathOf(context));
      }
      const remote = new RemoteTask(found);
      const approval = answerOf(context);
      if (remote.state === 'TASK_STATE_INPUT_REQUIRED' && context.resume && approval) {
        const request = remote.question().requests.find((entry) => entry.type === APPROVAL_REQUEST_TYPE);
        const answer = {
          approved: approval.approved,
          approvalId: request?.approvalId,
          toolCallId: request?.toolCallId,
          ...(approval.reason === undefined ? {} : { reason: approval.reason }),
          ...(approval.editedArguments === undefined ? {} : { editedArguments: approval.editedArguments }),
        };
        const message = {
          messageId: `${contextId}-${context.resume.decisionId}`,
          taskId: found.id,
          contextId: found.contextId,
          role: 'ROLE_USER',
          parts: [{ data: answer }],
        };
        return outcomeOf(
          await follow(remote, client.stream('SendStreamingMessage', { message }, signal)),
          options.url,
          pathOf(context),
        );
      }
      if (remote.state === 'TASK_STATE_SUBMITTED' || remote.state === 'TASK_STATE_WORKING') {
        try {
          await follow(remote, client.stream('SubscribeToTask', { id: found.id }, signal));
        } catch (error) {
          // it finished between the look-up and the subscription: read how
          if (!(error instanceof A2aRemoteError && error.code === -32004)) throw error;
          remote.task = await client.call<A2aTask>('GetTask', { id: found.id }, signal);
        }
      }
      return outcomeOf(remote, options.url, pathOf(context));
    },
  };
}
