import {
  FORK_REPEAT_ACTION,
  type ForkOrigin,
  type Plugin,
  type ToolGateContext,
  type ToolGateDecision,
  callInstanceKey,
  defineStateKey,
  forkRepeatSuspension,
  forkRepeatTicketId,
  readIndeterminateAnswer,
  sameJson,
  toolFailure,
  toolSuccess,
} from '@awaken/contract';
import { z } from 'zod';

/** The plugin id of a forked run's repeat guard (installed by the runtime, first in every phase). */
export const FORK_GUARD_PLUGIN_ID = 'awaken.fork-guard';

/** Call instances (`<step>:<callId>`) a human told to run again: a replay of them is let through. */
const confirmedKey = defineStateKey<string[]>({
  name: 'fork.confirmedRepeats',
  scope: 'run',
  persistent: true,
  initial: () => [],
  schema: z.array(z.string()),
});

const ALLOW: ToolGateDecision = Object.freeze({ type: 'allow' });

/** The human's answer to this call's own fork-repeat ticket, as a gate decision. */
function answered(context: ToolGateContext): ToolGateDecision {
  const resume = context.resume!;
  const name = context.call.name;
  if (resume.action === 'cancel') {
    return { type: 'cancel', reason: `"${name}" not run again on this fork: ${resume.reason ?? 'denied'}` };
  }
  const answer = readIndeterminateAnswer(resume.result);
  if (answer === undefined)
    return { type: 'cancel', reason: `"${name}" not run again on this fork: the answer was not understood` };
  switch (answer.outcome) {
    case 'retry': {
      const key = callInstanceKey(context);
      context.state.update(confirmedKey, (keys) => (keys.includes(key) ? keys : [...keys, key]));
      return ALLOW;
    }
    case 'result':
      return { type: 'set_result', result: toolSuccess(answer.result ?? null) };
    case 'fail':
      return {
        type: 'set_result',
        result: toolFailure(
          `"${name}" not run again on this fork: ${answer.reason ?? resume.reason ?? 'a human said not to repeat it'}`,
        ),
      };
  }
}

/**
 * The ToolGate of a forked run: a call to a tool that must never run twice (`idempotent: false`),
 * which the source run already ran at or after the fork point (`origin.repeats`, by tool name),
 * suspends with a `fork_repeat` ticket before it runs — whatever its arguments, since the fork cannot
 * tell a repeat from a new effect. The answer decides: `retry` runs it (this call instance is then
 * never asked again, whichever other plugin suspends it later), `result` uses the given value without
 * running it, `fail` or a denial resolves it without running it. Every other call is allowed.
 */
export function forkGuardPlugin(origin: ForkOrigin, mustNotRepeat: (toolName: string) => boolean): Plugin {
  return {
    id: FORK_GUARD_PLUGIN_ID,
    stateKeys: [confirmedKey],
    hooks: {
      toolGate(context) {
        const call = context.call;
        if (!mustNotRepeat(call.name)) return ALLOW;
        const recorded = origin.repeats.filter((repeat) => repeat.toolName === call.name);
        if (recorded.length === 0) return ALLOW;
        if (context.state.get(confirmedKey).includes(callInstanceKey(context))) return ALLOW;
        const ticket = context.ticket;
        if (
          context.resume !== undefined &&
          ticket?.suspension.action === FORK_REPEAT_ACTION &&
          ticket.suspension.id === forkRepeatTicketId(context.step, call.id)
        )
          return answered(context);
        // the recorded call with these very arguments first: the one a human most likely compares
        const same = recorded.filter((repeat) => sameJson(repeat.arguments, call.arguments));
        return {
          type: 'suspend',
          suspension: forkRepeatSuspension({
            step: context.step,
            callId: call.id,
            toolName: call.name,
            arguments: call.arguments,
            sourceRunId: origin.runId,
            forkStep: origin.step,
            recorded: [...same, ...recorded.filter((repeat) => !same.includes(repeat))],
          }),
          resumeMode: 'replay_tool_call',
        };
      },
    },
  };
}
