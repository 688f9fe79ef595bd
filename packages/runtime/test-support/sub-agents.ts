import {
  type InferenceRequest,
  type Message,
  type Plugin,
  type RunControlInbox,
  type RunEventLog,
  type ThreadRunStore,
  type Tool,
  type ToolMessage,
  callInstanceKey,
} from '@awaken/contract';
import { type ScriptedModel, type ScriptedTurn, createScriptedModel } from '@awaken/testing';
import { agentTool } from '../src/agent-tool';
import { createAgentRuntime } from '../src/create-agent-runtime';
import type { AgentDefinition, AgentRuntimeOptions } from '../src/types';
import { recordingTool } from './approval';
import { createTestStore } from './recording-store';

/** The last tool message of a model request, if the history ends with tool results. */
export function lastToolMessage(messages: readonly Message[]): ToolMessage | undefined {
  const last = messages[messages.length - 1];
  return last?.role === 'tool' ? last : undefined;
}

/** The tool messages of the latest tool round (after the last assistant turn). */
function latestToolMessages(messages: readonly Message[]): ToolMessage[] {
  const found: ToolMessage[] = [];
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'tool') break;
    found.unshift(message);
  }
  return found;
}

/**
 * A ToolGate plugin suspending every call of `toolNames` with an approval ticket
 * (`ask_<step>:<callId>`, answered `{approved, reason?, editedArguments?}`); `inheritable` makes it a
 * rule of the agent's sub-agents too. Approved replays are allowed; the runtime cancels declined ones.
 */
export function askPlugin(
  toolNames: readonly string[],
  options: { id?: string; inheritable?: boolean; requiresDistinctApprover?: boolean } = {},
): Plugin {
  return {
    id: options.id ?? 'ask',
    ...(options.inheritable ? { inheritable: true } : {}),
    hooks: {
      toolGate(context) {
        if (!toolNames.includes(context.call.name)) return undefined;
        const id = `ask_${callInstanceKey(context)}`;
        if (context.resume && context.ticket?.suspension.id === id) return undefined;
        return {
          type: 'suspend',
          suspension: {
            id,
            action: 'confirm',
            message: `Allow ${context.call.name} ${JSON.stringify(context.call.arguments)}?`,
            parameters: { toolName: context.call.name, arguments: context.call.arguments },
            responseSchema: {
              type: 'object',
              properties: { approved: { type: 'boolean' }, reason: { type: 'string' }, editedArguments: {} },
              required: ['approved'],
            },
            ...(options.requiresDistinctApprover ? { requiresDistinctApprover: true } : {}),
          },
          resumeMode: 'replay_tool_call',
        };
      },
    },
  };
}

/**
 * The janitor's scripted model: lists the files, deletes each path of its task (one call per path,
 * all in one turn), then reports what happened to each.
 */
export function janitorModel(
  options: {
    name?: string;
    /** Delays the turn of this model call (1-based) by `ms`, honouring aborts; `onCall` sees it start. */
    slowCall?: { call: number; ms: number };
    onCall?: (call: number) => void;
  } = {},
) {
  const name = options.name ?? 'janitor';
  return createScriptedModel((request: InferenceRequest, index: number): ScriptedTurn => {
    options.onCall?.(index + 1);
    const slow = options.slowCall?.call === index + 1 ? { delayMs: options.slowCall.ms } : {};
    return { ...janitorTurn(name, request), ...slow };
  });
}

function janitorTurn(name: string, request: InferenceRequest): ScriptedTurn {
  const messages = request.messages;
  const task = messages.find((message) => message.role === 'user');
  const paths = (task?.role === 'user' ? task.content : '').match(/\/\S+/g) ?? [];
  const results = latestToolMessages(messages);
  const round = messages.filter((message) => message.role === 'assistant').length;
  if (round === 0) return { toolCalls: [{ id: 'list', name: 'list_files', arguments: {} }] };
  if (round === 1)
    return {
      toolCalls: paths.map((path, index) => ({
        id: `del_${index}`,
        name: 'delete_file',
        arguments: { path },
      })),
    };
  const report = results.map((result) => {
    const path = (result.content as { args?: { path?: string } } | undefined)?.args?.path;
    if (result.outcome === 'succeeded') return `${name} deleted ${path}.`;
    return `${name} did not delete (${result.outcome}: ${JSON.stringify(result.content)}).`;
  });
  return { text: report.join(' ') };
}

/** The parent's scripted model: delegates each `[tool, task]` in one turn, then quotes the answers. */
export function delegatingModel(delegations: ReadonlyArray<readonly [string, string]>) {
  return createScriptedModel((request: InferenceRequest): ScriptedTurn => {
    const results = latestToolMessages(request.messages);
    if (results.length === 0)
      return {
        toolCalls: delegations.map(([tool, task], index) => ({
          id: `delegate_${index}`,
          name: tool,
          arguments: { task },
        })),
      };
    return {
      text: results.map((result) => `${result.toolName}: ${JSON.stringify(result.content)}`).join('\n'),
    };
  });
}

export interface SubAgentSetup {
  /** The parent's tool execution mode. */
  toolExecution?: 'sequential' | 'parallel';
  /** Plugins of the parent (e.g. an inheritable rule). */
  parentPlugins?: Plugin[];
  /** Plugins of the janitor; default: it asks before every `delete_file`. */
  janitorPlugins?: Plugin[];
  /** The parent's delegations; default one janitor call deleting `/tmp/report.txt`. */
  delegations?: ReadonlyArray<readonly [string, string]>;
  store?: ThreadRunStore;
  eventLog?: RunEventLog;
  inbox?: RunControlInbox;
  /** The parent's tools; default agent tools of `janitor` and `archivist`. */
  parentTools?: Tool[];
  /** Replaces the children's counted `delete_file`. */
  deleteTool?: Tool;
  /** The janitor's model (default `janitorModel()`) and more fields of its definition. */
  janitor?: ScriptedModel;
  janitorAgent?: Partial<AgentDefinition>;
  /** Extra agents (e.g. a middle agent for depth 2). */
  agents?: AgentDefinition[];
  runtime?: Partial<Omit<AgentRuntimeOptions, 'agents' | 'stores'>>;
}

/**
 * An `assistant` agent delegating to sub-agents `janitor` and `archivist` (both janitors with their
 * own counted `list_files` / `delete_file`, asking before each delete), over memory stores.
 */
export function subAgentHarness(setup: SubAgentSetup = {}) {
  const store = setup.store ?? createTestStore();
  const listFiles = recordingTool('list_files');
  const deleteFile = recordingTool('delete_file');
  const parentModel = delegatingModel(setup.delegations ?? [['janitor', 'delete /tmp/report.txt']]);
  const janitor = setup.janitor ?? janitorModel();
  const archivist = janitorModel({ name: 'archivist' });
  const childPlugins = setup.janitorPlugins ?? [askPlugin(['delete_file'])];
  let counter = 0;
  const runtime = createAgentRuntime({
    ...setup.runtime,
    agents: [
      {
        id: 'assistant',
        model: parentModel,
        tools: setup.parentTools ?? [agentTool('janitor'), agentTool('archivist')],
        plugins: setup.parentPlugins ?? [],
        toolExecution: setup.toolExecution ?? 'sequential',
      },
      {
        id: 'janitor',
        model: janitor,
        tools: [listFiles.tool, setup.deleteTool ?? deleteFile.tool],
        plugins: childPlugins,
        ...setup.janitorAgent,
      },
      { id: 'archivist', model: archivist, tools: [listFiles.tool, deleteFile.tool], plugins: childPlugins },
      ...(setup.agents ?? []),
    ],
    stores: {
      threadRuns: store,
      ...(setup.eventLog ? { eventLog: setup.eventLog } : {}),
      ...(setup.inbox ? { inbox: setup.inbox } : {}),
    },
    createId: setup.runtime?.createId ?? (() => `id_${++counter}`),
  });
  return { runtime, store, parentModel, janitor, archivist, listFiles, deleteFile };
}
