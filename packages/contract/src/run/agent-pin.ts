import { z } from 'zod';

/** The parts of an agent definition a pin hashes, each on its own so a change can be named. */
export const AGENT_PIN_FIELDS = ['instructions', 'model', 'tools', 'rules'] as const;
export type AgentPinField = (typeof AGENT_PIN_FIELDS)[number];

/**
 * What a run records of the agent definition that started it: `hash` (sha256 of the canonical JSON
 * of the four fields) and one hash per field — `instructions` (the system prompt), `model` (the
 * model executor's id), `tools` (each tool's name and input JSON Schema; `toolHashes` has one per
 * tool name) and `rules` (the `definition` of every plugin that declares one, e.g. the permission
 * rules). A resumed run compares it with the agent as deployed now (see `onAgentChange`).
 */
export const agentPinSchema = z.object({
  hash: z.string().min(1),
  fields: z.record(z.string(), z.string()),
  toolHashes: z.record(z.string(), z.string()).optional(),
});
export type AgentPin = z.infer<typeof agentPinSchema>;

/**
 * How the agent deployed now differs from the one a run was pinned to: the fields whose hash
 * changed, and for `tools` which tool names were added, removed or changed (input schema).
 */
export const agentDriftSchema = z.object({
  changed: z.array(z.enum(AGENT_PIN_FIELDS)),
  tools: z
    .object({ added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()) })
    .optional(),
});
export type AgentDrift = z.infer<typeof agentDriftSchema>;

/** The drift between a run's pin and the current agent's pin; `undefined` when they are the same. */
export function agentDriftOf(pinned: AgentPin, current: AgentPin): AgentDrift | undefined {
  if (pinned.hash === current.hash) return undefined;
  const changed = AGENT_PIN_FIELDS.filter((field) => pinned.fields[field] !== current.fields[field]);
  if (changed.length === 0) return undefined;
  const drift: AgentDrift = { changed };
  if (changed.includes('tools') && pinned.toolHashes && current.toolHashes) {
    const before = pinned.toolHashes;
    const now = current.toolHashes;
    drift.tools = {
      added: Object.keys(now)
        .filter((name) => !(name in before))
        .sort(),
      removed: Object.keys(before)
        .filter((name) => !(name in now))
        .sort(),
      changed: Object.keys(now)
        .filter((name) => name in before && before[name] !== now[name])
        .sort(),
    };
  }
  return drift;
}

/** One line naming a drift, e.g. `instructions, tools (added: x; changed: delete_file)`. */
export function describeAgentDrift(drift: AgentDrift): string {
  return drift.changed
    .map((field) => {
      if (field !== 'tools' || !drift.tools) return field;
      const parts = (['added', 'removed', 'changed'] as const)
        .filter((kind) => drift.tools?.[kind].length)
        .map((kind) => `${kind}: ${drift.tools?.[kind].join(', ')}`);
      return parts.length > 0 ? `tools (${parts.join('; ')})` : 'tools';
    })
    .join(', ');
}
