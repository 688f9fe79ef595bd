import type { AgentPin, ModelExecutor } from '@awaken/contract';
import { agentPinOf } from './internal/runtime/agent-pin-of';
import { normalizeTools } from './internal/runtime/normalize-tools';
import type { AgentDefinition } from './types';

/**
 * The pin a run of `definition` records (`RunRecord.agentPin`), as `createAgentRuntime` computes it:
 * what a server compares a stored run's pin with to show drift. `defaultModel` is the runtime's
 * default model, for an agent without one.
 */
export function agentPinOfDefinition(definition: AgentDefinition, defaultModel?: ModelExecutor): AgentPin {
  const tools = normalizeTools(definition.id, definition.tools);
  const model = definition.model ?? defaultModel;
  return agentPinOf({
    ...(definition.systemPrompt === undefined ? {} : { systemPrompt: definition.systemPrompt }),
    ...(model?.modelId === undefined ? {} : { modelId: model.modelId }),
    descriptors: [...tools.values()].map((tool) => tool.descriptor),
    ...(definition.plugins ? { plugins: definition.plugins } : {}),
  });
}
