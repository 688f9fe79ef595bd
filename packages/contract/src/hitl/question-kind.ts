import type { RunWaitingTicket } from '../run/run-waiting-state';
import { CLIENT_TOOL_ACTION } from '../tool/client-tool';
import { FORK_REPEAT_ACTION } from './fork-repeat';
import { INDETERMINATE_ACTION } from './indeterminate';
import type { SuspendTicket } from './suspension';

/**
 * What kind of question a ticket asks, which decides how every door shows it and reads its answer:
 * - `approval`: yes or no to the call (it re-runs once approved), `{approved, reason?, editedArguments?}`;
 * - `indeterminate`: did a call that must never run twice happen before its process died? Answered
 *   with the ticket's own `responseSchema` — `{outcome: 'retry'}`, `{outcome: 'result', result?}` or
 *   `{outcome: 'fail', reason?}` ({@link INDETERMINATE_ACTION}); a forked run's question before it runs
 *   again a tool that must never run twice ({@link FORK_REPEAT_ACTION}) is of this kind too;
 * - `client_tool`: the output of a tool the client executes;
 * - `value`: any other value the ticket asks for, shaped by its `responseSchema`.
 */
export type QuestionKind = 'approval' | 'indeterminate' | 'client_tool' | 'value';

/** A ticket as an event carries it or as a waiting run lists it: enough to tell its kind. */
export type KindedTicket =
  | Pick<SuspendTicket, 'suspension' | 'resumeMode'>
  | Pick<RunWaitingTicket, 'action' | 'resumeMode'>;

/**
 * The kind of question a ticket asks. An `indeterminate` ticket replays its call on `retry` like an
 * approval does, but it is never an approval: a yes/no cannot say "it happened, here is its result".
 */
export function questionKindOf(ticket: KindedTicket): QuestionKind {
  const action = 'suspension' in ticket ? ticket.suspension.action : ticket.action;
  if (action === INDETERMINATE_ACTION || action === FORK_REPEAT_ACTION) return 'indeterminate';
  if (action === CLIENT_TOOL_ACTION) return 'client_tool';
  return ticket.resumeMode === 'replay_tool_call' ? 'approval' : 'value';
}

/** True when the ticket asks whether a call that must never run twice happened (retry / result / fail). */
export function isIndeterminateTicket(ticket: KindedTicket): boolean {
  return questionKindOf(ticket) === 'indeterminate';
}
