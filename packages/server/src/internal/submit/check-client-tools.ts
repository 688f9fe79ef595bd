import { AwakenError } from '@awaken/contract';
import type { AgentDefinition } from '@awaken/runtime';

/**
 * The names of the tools an agent executes on the server: all its tools but its client tools
 * (`clientTool: true`), which a request may declare again.
 */
export function serverToolNames(agent: AgentDefinition): Set<string> {
  const tools = agent.tools ?? [];
  const entries: Array<[string, unknown]> = Array.isArray(tools)
    ? tools.map((tool) => [tool.name, tool])
    : Object.entries(tools);
  return new Set(
    entries
      .filter(([, tool]) => (tool as { clientTool?: unknown } | null)?.clientTool !== true)
      .map(([name]) => name),
  );
}

/**
 * Refuses client tools that the runtime would refuse when it creates the run — one shadowing a tool
 * the agent executes on the server, or a name declared twice — here, before a busy thread is cleared
 * for the run (`ifBusy: 'interrupt'` cancels a waiting run): a refused submit changes nothing.
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
        `tools[${index}] "${name}" shadows a server-executed tool of agent "${agentId}": a request may only redeclare the agent's client tools`,
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
