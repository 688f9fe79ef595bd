import {
  type AgentPin,
  AwakenError,
  type ModelExecutor,
  type Plugin,
  type StopConditionSpec,
  type ToolDescriptor,
  formatZodIssues,
  stopConditionSpecSchema,
} from '@awaken/contract';
import type { AgentDefinition } from '../../types';
import { agentPinOf } from './agent-pin-of';
import { type ResolvedTool, normalizeTools } from './normalize-tools';

/**
 * The step limit of an agent that declares no `max_rounds` stop condition (Awaken's default of 16
 * rounds; the AI SDK's is 20 steps): a tool loop ends `stopped{max_rounds}` after this many steps even
 * when the model never stops calling tools. Declare `{ type: 'max_rounds', rounds }` to change it.
 */
export const DEFAULT_MAX_ROUNDS = 16;

/** An agent definition checked once at runtime creation, with its lookups precomputed. */
export interface ResolvedAgent {
  definition: AgentDefinition;
  id: string;
  model: ModelExecutor;
  tools: Map<string, ResolvedTool>;
  descriptors: ToolDescriptor[];
  stopConditions: StopConditionSpec[];
  toolExecution: 'sequential' | 'parallel';
  approvalTimeout?: number;
  onApprovalExpired: 'continue' | 'end_run';
  /** The pin of this definition, recorded on every run it starts (`RunRecord.agentPin`). */
  pin: AgentPin;
  /**
   * Set for an agent running as a child run under inherited plugins: one level per ancestor that
   * gives any (top first), then the agent's own; ToolGate decisions combine strictest-wins across
   * levels. `definition.plugins` is then every level, flattened.
   */
  pluginLevels?: readonly (readonly Plugin[])[];
  /** The agents this agent's handoff tools transfer to, by id (set by `resolveHandoffs`). */
  handoffTargets?: ReadonlyMap<string, ResolvedAgent>;
}

function invalid(message: string): AwakenError {
  return new AwakenError('invalid_config', message);
}

function resolveAgent(definition: AgentDefinition, defaultModel: ModelExecutor | undefined): ResolvedAgent {
  if (typeof definition.id !== 'string' || definition.id.length === 0)
    throw invalid('agent id must be a non-empty string');
  const model = definition.model ?? defaultModel;
  if (!model) throw invalid(`agent "${definition.id}" has no model and the runtime has no default model`);
  const tools = normalizeTools(definition.id, definition.tools);
  const declared = (definition.stopConditions ?? []).map((spec, index) => {
    const parsed = stopConditionSpecSchema.safeParse(spec);
    if (!parsed.success) {
      throw invalid(
        `agent "${definition.id}" stopConditions[${index}] is invalid: ${formatZodIssues(parsed.error.issues)}`,
      );
    }
    return parsed.data;
  });
  // a tool loop always ends: without a declared max_rounds, the default limit applies (checked last)
  const stopConditions = declared.some((spec) => spec.type === 'max_rounds')
    ? declared
    : [...declared, { type: 'max_rounds' as const, rounds: DEFAULT_MAX_ROUNDS }];
  const pluginIds = new Set<string>();
  for (const plugin of definition.plugins ?? []) {
    if (pluginIds.has(plugin.id)) throw invalid(`agent "${definition.id}" uses plugin "${plugin.id}" twice`);
    pluginIds.add(plugin.id);
  }
  const toolExecution = definition.toolExecution ?? 'sequential';
  if (toolExecution !== 'sequential' && toolExecution !== 'parallel') {
    throw invalid(`agent "${definition.id}" toolExecution must be "sequential" or "parallel"`);
  }
  const { approvalTimeout } = definition;
  if (approvalTimeout !== undefined && !(Number.isSafeInteger(approvalTimeout) && approvalTimeout > 0)) {
    throw invalid(`agent "${definition.id}" approvalTimeout must be a positive integer (milliseconds)`);
  }
  const onApprovalExpired = definition.onApprovalExpired ?? 'continue';
  if (onApprovalExpired !== 'continue' && onApprovalExpired !== 'end_run') {
    throw invalid(`agent "${definition.id}" onApprovalExpired must be "continue" or "end_run"`);
  }
  const descriptors = [...tools.values()].map((tool) => tool.descriptor);
  return {
    definition,
    id: definition.id,
    ...(approvalTimeout === undefined ? {} : { approvalTimeout }),
    onApprovalExpired,
    pin: agentPinOf({
      ...(definition.systemPrompt === undefined ? {} : { systemPrompt: definition.systemPrompt }),
      ...(model.modelId === undefined ? {} : { modelId: model.modelId }),
      descriptors,
      ...(definition.plugins ? { plugins: definition.plugins } : {}),
    }),
    model,
    tools,
    descriptors,
    stopConditions,
    toolExecution,
  };
}

/** Validates every agent; throws `invalid_config` naming the agent and the problem. */
export function resolveAgents(
  definitions: readonly AgentDefinition[],
  defaultModel: ModelExecutor | undefined,
): Map<string, ResolvedAgent> {
  const agents = new Map<string, ResolvedAgent>();
  for (const definition of definitions) {
    if (agents.has(definition.id)) throw invalid(`agent "${definition.id}" is defined twice`);
    agents.set(definition.id, resolveAgent(definition, defaultModel));
  }
  return agents;
}

/** Looks an agent up or throws `invalid_config` for an unknown id. */
export function requireAgent(agents: Map<string, ResolvedAgent>, agentId: string): ResolvedAgent {
  const agent = agents.get(agentId);
  if (!agent) {
    throw invalid(`unknown agent "${agentId}" (known: ${[...agents.keys()].join(', ') || 'none'})`);
  }
  return agent;
}
