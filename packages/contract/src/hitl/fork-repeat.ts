import type { ForkRepeat } from '../run/fork-origin';
import { INDETERMINATE_ANSWER_JSON_SCHEMA } from './indeterminate';
import type { Suspension } from './suspension';

/**
 * The suspension action of a `fork_repeat` ticket: a forked run is about to run a tool declared
 * `idempotent: false` that already ran in the source run at or after the fork point, so running it
 * again would repeat its side effect. The fork never runs it by itself: a human answers, with the
 * answer shape of an `indeterminate` ticket (both are the `indeterminate` question kind):
 * `{outcome: 'retry'}` runs it again, `{outcome: 'result', result}` uses that value as its result
 * without running it (the ticket's parameters carry what the source run recorded), and
 * `{outcome: 'fail', reason?}` fails the call without running it. A denial (`cancel`) cancels it.
 */
export const FORK_REPEAT_ACTION = 'fork_repeat';

/** The ticket id of the fork-repeat question of one call instance. */
export function forkRepeatTicketId(step: number, callId: string): string {
  return `fork_repeat:${step}:${callId}`;
}

/**
 * The suspension a forked run raises before running again a non-idempotent tool its source run ran
 * after the fork point: parameters name the tool, the arguments of this call, the source run and its
 * recorded calls of the tool (the one with the same arguments first).
 */
export function forkRepeatSuspension(input: {
  step: number;
  callId: string;
  toolName: string;
  arguments?: unknown;
  sourceRunId: string;
  forkStep: number;
  recorded: ForkRepeat[];
}): Suspension {
  const times = input.recorded.length === 1 ? 'once' : `${input.recorded.length} times`;
  return {
    id: forkRepeatTicketId(input.step, input.callId),
    action: FORK_REPEAT_ACTION,
    message: `"${input.toolName}" must not run twice, and run ${input.sourceRunId} already ran it ${times} at or after step ${input.forkStep}, where this run was forked from it: run it again? Answer retry, result (the value to use instead; the recorded ones are in the parameters) or fail.`,
    parameters: {
      toolName: input.toolName,
      arguments: input.arguments,
      sourceRunId: input.sourceRunId,
      forkStep: input.forkStep,
      recorded: input.recorded,
    },
    responseSchema: INDETERMINATE_ANSWER_JSON_SCHEMA,
  };
}
