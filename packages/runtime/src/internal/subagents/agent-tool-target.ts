import { AwakenError } from '@awaken/contract';
import type { ResolvedAgent } from '../runtime/resolve-agents';

/** Marks a tool made by `agentTool` with the id of the agent it runs. */
export const AGENT_TOOL_TARGET: unique symbol = Symbol.for('awaken.agent-tool-target') as never;

function targetOf(tool: unknown): string | undefined {
  if (typeof tool !== 'object' || tool === null) return undefined;
  const target = (tool as { [AGENT_TOOL_TARGET]?: unknown })[AGENT_TOOL_TARGET];
  return typeof target === 'string' ? target : undefined;
}

/**
 * Every `agentTool` of every agent names an agent of the runtime: an unknown one is `invalid_config`
 * when the runtime is created, naming the agent, the tool and the missing agent.
 */
export function checkAgentTools(agents: ReadonlyMap<string, ResolvedAgent>): void {
  for (const agent of agents.values()) {
    const tools = agent.definition.tools;
    const entries = Array.isArray(tools) ? tools : Object.values(tools ?? {});
    for (const tool of entries) {
      const target = targetOf(tool);
      if (target === undefined || agents.has(target)) continue;
      throw new AwakenError(
        'invalid_config',
        `agent "${agent.id}" tool "${String((tool as { name?: unknown }).name)}" runs agent "${target}", which the runtime does not have (known: ${[...agents.keys()].join(', ')})`,
        { details: { agentId: agent.id, target } },
      );
    }
  }
}
