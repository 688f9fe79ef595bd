import { AwakenError, type RunRecord, agentDriftOf, describeAgentDrift } from '@awaken/contract';
import type { ResolvedAgent } from '../runtime/resolve-agents';

/**
 * `onAgentChange: 'refuse'`: throws `conflict` naming what changed when the agent that started the
 * run is now defined differently than its pin says (details: `runId`, `agentId`, `drift`). A run
 * stored without a pin is never refused.
 */
export function refuseAgentDrift(record: RunRecord, agent: ResolvedAgent): void {
  if (!record.agentPin) return;
  const drift = agentDriftOf(record.agentPin, agent.pin);
  if (!drift) return;
  throw new AwakenError(
    'conflict',
    `run ${record.runId} waits under another definition of agent "${record.agentId}": ${describeAgentDrift(drift)} changed since it started; resume it with onAgentChange 'continue' to go on under the new one`,
    { details: { runId: record.runId, agentId: record.agentId, drift } },
  );
}
