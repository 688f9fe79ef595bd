import {
  AwakenError,
  type HandoffRecord,
  MAX_HANDOFF_REASON_LENGTH,
  type ToolCallState,
  type ToolResult,
  toolFailure,
  toolSuccess,
} from '@awaken/contract';
import { handoffOutput } from '../../handoff-tool';
import { persistentPluginState, restorePluginState } from '../plugins/plugin-host';
import type { RunSession } from '../session/run-session';
import { forkedAgent } from '../fork/forked-agent';

/** The agent a call of the session's agent hands off to, when the call is of a handoff tool. */
function targetOf(session: RunSession, call: ToolCallState): string | undefined {
  return session.agent.tools.get(call.toolName)?.handoff?.agentId;
}

/**
 * The handoff call of `step` that took effect: a call of a handoff tool whose body ran and succeeded.
 * A call resolved without running (a gate's `set_result`, a client answer) transfers nothing.
 */
function effectiveHandoff(
  session: RunSession,
  step: number,
  except?: ToolCallState,
): { call: ToolCallState; agentId: string } | undefined {
  for (const call of session.batch.calls) {
    if (call === except || call.step !== step || call.status !== 'succeeded' || call.executions === 0)
      continue;
    const agentId = targetOf(session, call);
    if (agentId !== undefined) return { call, agentId };
  }
  return undefined;
}

/**
 * The result of executing a handoff call: success (the model reads that the run was transferred;
 * the transfer itself happens at the step's end), or a failure when another handoff call of the same
 * step already succeeded — the first one that runs wins. Synchronous, so two calls running at once
 * (parallel executor) cannot both pass the check: the caller applies the result before yielding.
 */
export function handoffResult(session: RunSession, state: ToolCallState, agentId: string): ToolResult {
  // a child run executes under the rules it inherits from its ancestors (resolved by its agent
  // path); a transfer to another agent would leave them behind, so a sub-agent cannot hand off
  if ((session.run.record.agentPath?.length ?? 0) >= 2) {
    return toolFailure(
      `not transferred: this run is a sub-agent's child run, which cannot hand the conversation to agent "${agentId}" (it would leave its parent's rules behind)`,
    );
  }
  const earlier = effectiveHandoff(session, state.step, state);
  if (earlier) {
    return toolFailure(
      `not transferred: this step already transferred the conversation to agent "${earlier.agentId}" (call ${earlier.call.callId}); only the first transfer of a step takes effect`,
    );
  }
  return toolSuccess(handoffOutput(agentId));
}

function reasonOf(call: ToolCallState): string | undefined {
  const args = (call.editedArguments ?? call.arguments) as { reason?: unknown } | undefined;
  // cut, not refused: a copy of the tool with a looser schema must not make the record unstorable
  const reason = typeof args?.reason === 'string' ? args.reason.slice(0, MAX_HANDOFF_REASON_LENGTH) : '';
  return reason.length > 0 ? reason : undefined;
}

/**
 * At the end of a step (after the StepEnd hooks and stop conditions of the agent that ran it): when a
 * handoff call of the step took effect, the run's agent becomes its target — recorded on the run
 * record (`activeAgentId`, `handoffs`, stored by the next checkpoint together with the step's end)
 * and as a `handoff` event. The target's plugins start with fresh run-scoped state (a transfer
 * inherits nothing); the thread-scoped state is the thread's and carries over. No RunStart or RunEnd
 * hook runs: those belong to the activation.
 */
export function handOffAtStepEnd(session: RunSession): void {
  const { run } = session;
  const step = run.record.steps;
  const found = effectiveHandoff(session, step);
  if (!found) return;
  const last = run.record.handoffs?.at(-1);
  if (last?.step === step && last.toolCallId === found.call.callId) return;
  const target = session.agent.handoffTargets?.get(found.agentId);
  if (!target) {
    throw new AwakenError('internal', `agent "${session.agent.id}" has no handoff target "${found.agentId}"`);
  }
  const reason = reasonOf(found.call);
  const handoff: HandoffRecord = {
    fromAgentId: session.agent.id,
    toAgentId: target.id,
    toolCallId: found.call.callId,
    step,
    at: session.now(),
    ...(reason === undefined ? {} : { reason }),
  };
  // the thread state the current agent's plugins hold joins the stored one, so the target's plugins
  // read its latest values for the keys they share and nothing unstored is dropped
  Object.assign(run.plugins.storedThread, persistentPluginState(session).thread ?? {});
  run.plugins.run.clear();
  run.record = {
    ...run.record,
    activeAgentId: target.id,
    handoffs: [...(run.record.handoffs ?? []), handoff],
  };
  // a fork keeps its repeat guard under the agent it hands over to
  session.agent = forkedAgent(target, run.record);
  restorePluginState(session, 'thread');
  const { at: _at, ...event } = handoff;
  session.events.post({ type: 'handoff', ...event });
}
