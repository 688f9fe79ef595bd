import type { RunRecord } from '@awaken/contract';
import type { ResolvedAgent } from '../runtime/resolve-agents';
import { forkGuardPlugin } from './fork-guard';

/**
 * The agent a forked run executes as: `agent` with the fork's repeat guard installed ahead of its
 * plugins (see `forkGuardPlugin`) and, for the agent the fork started with, the fork's `instructions`
 * as its system prompt. The pin stays the agent's own: the fork's record names the instructions it
 * was given. A run that is not a fork gets `agent` itself.
 */
export function forkedAgent(
  agent: ResolvedAgent,
  record: Pick<RunRecord, 'agentId' | 'forkOf'>,
): ResolvedAgent {
  const origin = record.forkOf;
  if (origin === undefined) return agent;
  const guard = forkGuardPlugin(origin, (name) => agent.tools.get(name)?.idempotent === false);
  const instructions =
    origin.instructions !== undefined && agent.id === record.agentId
      ? { systemPrompt: origin.instructions }
      : {};
  return {
    ...agent,
    definition: {
      ...agent.definition,
      ...instructions,
      plugins: [guard, ...(agent.definition.plugins ?? [])],
    },
  };
}
