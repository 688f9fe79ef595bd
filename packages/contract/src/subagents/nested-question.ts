import { z } from 'zod';

/**
 * What a parent call's ticket carries when it mirrors a question asked INSIDE a child run (a
 * sub-agent started by `agentTool`, or a remote agent reached by `a2aAgentTool`): `suspension.nested`.
 *
 * Two parts:
 * - the **address** of the question one level down — `runId`, `ticketId` and `toolCallId` name the
 *   child run (for a remote A2A agent, its task id), the child's ticket and the call that waits on it
 *   there. An answer given to the parent ticket is forwarded there (see `forwardDecision`), judged by
 *   the child's own judge, and the child resumes at that call;
 * - the **question** as the human must see it — `toolName` and `arguments` of the innermost call that
 *   really asks (with the arguments a human edited, if any) and `agentPath`, the agents from the
 *   top-level run's agent down to the one that asks.
 *
 * Depth 2 and more chain: a grandchild's question is nested in the child's ticket, and the parent's
 * ticket nests the child's ticket again — its address names the child (the next hop), its question
 * fields and `agentPath` still name the innermost call. A decision on a ticket with `nested` is never
 * applied to the parent call itself (a denial does not cancel it, edited arguments do not replace its
 * own): the runtime replays the call with the decision, whatever its action, and the call forwards it.
 */
export const nestedQuestionSchema = z.object({
  /** The child run that holds the question (a remote agent's task id for `a2aAgentTool`). */
  runId: z.string().min(1),
  /** The child's ticket the parent ticket mirrors. */
  ticketId: z.string().min(1),
  /** The call of the child run that waits on `ticketId`. */
  toolCallId: z.string().min(1),
  /** The innermost tool that asks (e.g. `delete_file`). */
  toolName: z.string(),
  /** Its arguments, as it would run (edited ones if a human edited them). */
  arguments: z.unknown().optional(),
  /** Agent ids from the top-level run's agent to the agent that asks, e.g. `['assistant', 'janitor']`. */
  agentPath: z.array(z.string().min(1)).min(1),
});
export type NestedQuestion = z.infer<typeof nestedQuestionSchema>;
