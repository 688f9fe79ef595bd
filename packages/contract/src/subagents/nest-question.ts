import type { ToolCallDecisionInput, ToolCallResume } from '../hitl/decision';
import type { Suspension } from '../hitl/suspension';
import type { RunWaitingTicket } from '../run/run-waiting-state';
import type { NestedQuestion } from './nested-question';

/** Separates the agents of a path in a nested ticket's message (`janitor › delete_file: …`). */
export const AGENT_PATH_SEPARATOR = ' › ';

/**
 * The id of the parent ticket mirroring `childTicketId` of the child run `childRunId`: unique in the
 * parent run (a child belongs to one call, and a child's ticket ids are unique in the child).
 */
export function nestedTicketId(childRunId: string, childTicketId: string): string {
  return `sub:${childRunId}:${childTicketId}`;
}

/** The id a decision forwarded to a child run gets: derived, so forwarding it again is a duplicate. */
export function forwardedDecisionId(decisionId: string): string {
  return `fwd:${decisionId}`;
}

/** What a parent call suspends with to mirror a child's open ticket (see {@link nestQuestion}). */
export interface NestedSuspension {
  suspension: Suspension;
  /** The child ticket's own expiry: the parent ticket expires with it. */
  expiresAt?: number;
}

/**
 * The suspension a parent call raises for one open ticket of its child run (`child.agentPath` ends
 * with the child's agent). It mirrors the child's ticket — `action`, `parameters`, `responseSchema`,
 * `requiresDistinctApprover` and `expiresAt` — so the parent's judge refuses exactly what the child's
 * would; its `message` is prefixed with the agent path below the top (`janitor › delete_file: …`); its
 * `nested` names the child's ticket (the address an answer is forwarded to) and the innermost call
 * that asks. A child ticket that is itself nested (a grandchild asks) is nested again: the address
 * is the child, the question and the full agent path are the grandchild's.
 */
export function nestQuestion(
  child: { runId: string; agentPath: readonly string[] },
  ticket: RunWaitingTicket,
): NestedSuspension {
  const agentId = child.agentPath[child.agentPath.length - 1] ?? '';
  const inner = ticket.nested;
  const nested: NestedQuestion = {
    runId: child.runId,
    ticketId: ticket.ticketId,
    toolCallId: ticket.toolCallId,
    toolName: inner ? inner.toolName : ticket.toolName,
    ...((inner ? inner.arguments : ticket.arguments) === undefined
      ? {}
      : { arguments: inner ? inner.arguments : ticket.arguments }),
    agentPath: inner ? [...inner.agentPath] : [...child.agentPath],
  };
  const question = inner ? ticket.message : `${ticket.toolName}: ${ticket.message}`;
  return {
    suspension: {
      id: nestedTicketId(child.runId, ticket.ticketId),
      action: ticket.action,
      message: `${agentId}${AGENT_PATH_SEPARATOR}${question}`,
      ...(ticket.parameters === undefined ? {} : { parameters: ticket.parameters }),
      ...(ticket.responseSchema ? { responseSchema: ticket.responseSchema } : {}),
      ...(ticket.requiresDistinctApprover ? { requiresDistinctApprover: true } : {}),
      nested,
    },
    ...(ticket.expiresAt === undefined ? {} : { expiresAt: ticket.expiresAt }),
  };
}

/**
 * The decision a child run gets for an answer to a parent ticket with `nested`: the same action,
 * result, reason, decider, channel and context, addressed to the child's ticket and call, with a
 * decision id derived from the parent's ({@link forwardedDecisionId}) so a replay forwards it once.
 */
export function forwardDecision(resume: ToolCallResume, nested: NestedQuestion): ToolCallDecisionInput {
  return {
    decisionId: forwardedDecisionId(resume.decisionId),
    ticketId: nested.ticketId,
    toolCallId: nested.toolCallId,
    action: resume.action,
    updatedAt: resume.updatedAt,
    ...(resume.result === undefined ? {} : { result: resume.result }),
    ...(resume.reason === undefined ? {} : { reason: resume.reason }),
    ...(resume.context === undefined ? {} : { context: resume.context }),
    ...(resume.decidedBy === undefined ? {} : { decidedBy: resume.decidedBy }),
    ...(resume.channel === undefined ? {} : { channel: resume.channel }),
  };
}
