import type { A2aSkill } from '@awaken/protocol-a2a';
import type { AgentDefinition } from '@awaken/runtime';

/** What the agent card of one agent shows. */
export interface A2aAgentInfo {
  /** The agent id runs are submitted with. */
  id: string;
  /** Default: the id. */
  name?: string;
  /** Default: a line naming the agent. */
  description?: string;
  skills?: A2aSkill[];
  version?: string;
}

/** The A2A routes' options (`createHttpApp({ a2a })`). */
export interface A2aOptions {
  /** The agents served over A2A; an agent not listed has no card and no endpoint. */
  agents: A2aAgentInfo[];
  /** The agent of `/v1/a2a` and of the card at `/.well-known/agent-card.json`. Default: the first. */
  defaultAgentId?: string;
}

function toolsOf(definition: AgentDefinition): Array<{ name: string; description: string }> {
  const tools = definition.tools;
  if (!tools) return [];
  if (Array.isArray(tools)) return tools.map((tool) => ({ name: tool.name, description: tool.description }));
  return Object.entries(tools).map(([name, tool]) => {
    const description = 'execute' in tool && 'name' in tool ? tool.description : tool.description;
    return { name, description: typeof description === 'string' ? description : name };
  });
}

/**
 * A2A descriptions of agent definitions: one skill per tool (its name and description, tagged with
 * the agent id), the system prompt as the description unless `describe` gives one.
 */
export function a2aAgentsOf(
  definitions: readonly AgentDefinition[],
  describe: Record<string, { name?: string; description?: string }> = {},
): A2aAgentInfo[] {
  return definitions.map((definition) => {
    const given = describe[definition.id] ?? {};
    const description = given.description ?? definition.systemPrompt ?? `The ${definition.id} agent`;
    return {
      id: definition.id,
      name: given.name ?? definition.id,
      description,
      skills: toolsOf(definition).map((tool) => ({
        id: tool.name,
        name: tool.name,
        description: tool.description,
        tags: [definition.id],
      })),
    };
  });
}
