import { AwakenError } from '@awaken/contract';
import type { ResolvedAgent } from '../runtime/resolve-agents';

/**
 * Links every agent's handoff tools to their target agents (`handoffTargets`), once all agents are
 * resolved. A target the runtime does not know, or the agent itself, is `invalid_config` naming the
 * agent and the tool: a handoff must be possible whenever the model calls it.
 */
export function resolveHandoffs(agents: ReadonlyMap<string, ResolvedAgent>): void {
  for (const agent of agents.values()) {
    const targets = new Map<string, ResolvedAgent>();
    for (const tool of agent.tools.values()) {
      if (!tool.handoff) continue;
      const where = `agent "${agent.id}" tool "${tool.name}"`;
      const { agentId } = tool.handoff;
      if (agentId === agent.id) {
        throw new AwakenError('invalid_config', `${where} hands off to "${agentId}" itself`);
      }
      const target = agents.get(agentId);
      if (!target) {
        throw new AwakenError(
          'invalid_config',
          `${where} hands off to unknown agent "${agentId}" (known: ${[...agents.keys()].join(', ')})`,
        );
      }
      targets.set(agentId, target);
    }
    if (targets.size > 0) agent.handoffTargets = targets;
  }
}
