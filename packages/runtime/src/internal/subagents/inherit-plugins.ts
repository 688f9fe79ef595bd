import type { Plugin } from '@awaken/contract';
import type { ResolvedAgent } from '../runtime/resolve-agents';

/** Finds an agent of the runtime by id (`invalid_config` for an unknown one). */
export type AgentFor = (agentId: string) => ResolvedAgent;

/** An ancestor's plugin as installed in a descendant: named after its agent, same hooks and keys. */
function inheritedCopy(plugin: Plugin, agentId: string): Plugin {
  return { ...plugin, id: `${agentId}/${plugin.id}` };
}

/**
 * The agent a child run executes as: `agent` with the inheritable plugins (`Plugin.inheritable`) of
 * every ancestor on `agentPath` (top first, this agent last) installed ahead of its own, each plugin
 * object once (at its topmost level). `pluginLevels` keeps one level per ancestor that gives any,
 * then the agent's own plugins, for the ToolGate's strictest-wins combination across levels.
 * Without an ancestor giving a plugin, `agent` itself.
 */
export function withInheritedPlugins(
  agent: ResolvedAgent,
  agentPath: readonly string[] | undefined,
  agentFor: AgentFor,
): ResolvedAgent {
  if (agentPath === undefined || agentPath.length < 2) return agent;
  const seen = new Set<Plugin>();
  const levels: Plugin[][] = [];
  for (const ancestorId of agentPath.slice(0, -1)) {
    const level: Plugin[] = [];
    for (const plugin of agentFor(ancestorId).definition.plugins ?? []) {
      if (!plugin.inheritable || seen.has(plugin)) continue;
      seen.add(plugin);
      level.push(inheritedCopy(plugin, ancestorId));
    }
    if (level.length > 0) levels.push(level);
  }
  if (levels.length === 0) return agent;
  const own = (agent.definition.plugins ?? []).filter((plugin) => !seen.has(plugin));
  return {
    ...agent,
    definition: { ...agent.definition, plugins: [...levels.flat(), ...own] },
    pluginLevels: [...levels, own],
  };
}

/**
 * `withInheritedPlugins` memoised per agent path (a runtime's agents never change), so every
 * activation of a child run of one path shares one resolved agent.
 */
export function createAgentLookup(agentFor: AgentFor) {
  const cache = new Map<string, ResolvedAgent>();
  return (agentId: string, agentPath?: readonly string[]): ResolvedAgent => {
    const agent = agentFor(agentId);
    if (agentPath === undefined || agentPath.length < 2) return agent;
    const key = JSON.stringify([agentId, agentPath]);
    let found = cache.get(key);
    if (!found) {
      found = withInheritedPlugins(agent, agentPath, agentFor);
      cache.set(key, found);
    }
    return found;
  };
}
