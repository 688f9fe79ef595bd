import { AwakenError } from '@awaken/contract';
import type { AgentDefinition } from '@awaken/runtime';

/** The names of an agent's own (server) tools. */
export function serverToolNames(agent: AgentDefinition): Set<string> {
  const tools = agent.tools ?? [];
  return new Set(Array.isArray(tools) ? tools.map((tool) => tool.name) : Object.keys(tools));
}

/**
 * Refuses client tools that the runtime would refuse when it creates the run — one named like a
 * server tool of the agent, or a name declared twice — here, before a busy thread is cleared for
 * the run (`ifBusy: 'interrupt'` cancels a waiting run): a refused submit changes nothing.
 */
export function checkClientTools(tools: unknown, serverTools: ReadonlySet<string>, agentId: string): void {
  if (!Array.isArray(tools)) return;
  const names = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    const name = (tool as { name?: unknown } | null)?.name;
    if (typeof name !== 'string') continue;
    if (serverTools.has(name)) {
      throw new AwakenError(
        'validation_failed',
        `tools[${index}] "${name}" is a server tool of agent "${agentId}"`,
        {
          details: { field: `tools[${index}]` },
        },
      );
    }
    if (names.has(name)) {
      throw new AwakenError('validation_failed', `tools declares "${name}" twice`, {
        details: { field: `tools[${index}]` },
      });
    }
    names.add(name);
  }
}
