import { z } from 'zod';
import type { RunRecord } from '../run/run-record';
import { RUN_STATE_PATHS } from '../run/run-state-paths';
import type { ToolCallState } from '../tool/tool-call-state';
import { forwardedDecisionId } from '../subagents/nest-question';
import { readApproval } from './approval';
import { type ToolCallDecision, decisionChannelSchema, resumeDecisionActionSchema } from './decision';

/**
 * One applied decision, as the audit trail keeps it: who answered, when, through which channel, what
 * they were shown (the ticket's tool, arguments and message as stored) and what they answered. The
 * runtime writes it into the run record by the checkpoint that applies the decision (state path
 * `__decision_records`), so it is stored exactly when the decision takes effect, by every store, and
 * survives restarts; a `decision_recorded` event carries the same record.
 */
export const decisionRecordSchema = z.object({
  decisionId: z.string().min(1),
  toolCallId: z.string().min(1),
  ticketId: z.string().optional(),
  /** The authenticated subject (or link identity) that decided; absent when nobody was identified. */
  decidedBy: z.string().optional(),
  /** Who issued the approval link the decision came through (`decidedBy` is the approver it names). */
  issuedBy: z.string().optional(),
  channel: decisionChannelSchema.optional(),
  /** When the decision was made (its `updatedAt`, set by whoever received it). */
  decidedAt: z.number().int().nonnegative(),
  /** When the run applied it (the runtime's clock). */
  appliedAt: z.number().int().nonnegative(),
  /** What the human saw: the waiting call and its ticket as stored. */
  shown: z.object({
    toolName: z.string(),
    arguments: z.unknown().optional(),
    action: z.string().optional(),
    message: z.string().optional(),
    expiresAt: z.number().int().nonnegative().optional(),
  }),
  /** What the human answered. `approved` is read from an approval payload (`cancel` is a refusal). */
  answer: z.object({
    action: resumeDecisionActionSchema,
    approved: z.boolean().optional(),
    reason: z.string().optional(),
    /** The arguments the human substituted for the model's (the call runs with these, if anything). */
    editedArguments: z.unknown().optional(),
    /** The decision's result when it is not an approval payload (a client tool output, a form). */
    result: z.unknown().optional(),
  }),
  /**
   * For a ticket mirroring a child run's question (`suspension.nested`): where the decision was
   * forwarded — the child run, its ticket and the forwarded decision's id. The inner call's own audit
   * record is in the child run's trail, under that decision id.
   */
  forwardedTo: z.object({ runId: z.string(), ticketId: z.string(), decisionId: z.string() }).optional(),
});
export type DecisionRecord = z.infer<typeof decisionRecordSchema>;

/** The audit record of `decision` applied to `call` (the call as it waited, before the decision). */
export function decisionRecordOf(
  call: Pick<ToolCallState, 'toolName' | 'arguments' | 'editedArguments' | 'ticket'>,
  decision: ToolCallDecision,
  appliedAt: number,
): DecisionRecord {
  const ticket = call.ticket;
  const approval = readApproval(decision.result);
  const approved = decision.action === 'cancel' ? false : approval?.approved;
  const reason = approval?.reason ?? decision.reason;
  const shownArguments = ticket?.pending.arguments ?? call.editedArguments ?? call.arguments;
  const nested = ticket?.suspension.nested;
  return {
    decisionId: decision.decisionId,
    toolCallId: decision.toolCallId,
    ...(decision.ticketId === undefined ? {} : { ticketId: decision.ticketId }),
    ...(decision.decidedBy === undefined ? {} : { decidedBy: decision.decidedBy }),
    ...(decision.issuedBy === undefined ? {} : { issuedBy: decision.issuedBy }),
    ...(decision.channel === undefined ? {} : { channel: decision.channel }),
    decidedAt: decision.updatedAt,
    appliedAt,
    shown: {
      toolName: call.toolName,
      ...(shownArguments === undefined ? {} : { arguments: shownArguments }),
      ...(ticket ? { action: ticket.suspension.action, message: ticket.suspension.message } : {}),
      ...(ticket?.expiresAt === undefined ? {} : { expiresAt: ticket.expiresAt }),
    },
    answer: {
      action: decision.action,
      ...(approved === undefined ? {} : { approved }),
      ...(reason === undefined ? {} : { reason }),
      ...(approval?.editedArguments === undefined ? {} : { editedArguments: approval.editedArguments }),
      ...(approval === undefined && decision.result !== undefined ? { result: decision.result } : {}),
    },
    ...(nested === undefined
      ? {}
      : {
          forwardedTo: {
            runId: nested.runId,
            ticketId: nested.ticketId,
            decisionId: forwardedDecisionId(decision.decisionId),
          },
        }),
  };
}

/** The audit trail of a stored run, oldest first. An entry that does not parse is left out. */
export function readDecisionRecords(record: Pick<RunRecord, 'state'>): DecisionRecord[] {
  const stored = record.state[RUN_STATE_PATHS.decisionRecords];
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((entry) => {
    const parsed = decisionRecordSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * The subject who started a run: `context.caller.subject` of its record (the server sets `caller`
 * from the bearer token; a client cannot claim it). Four-eyes tickets compare approvers against it.
 */
export function runStarterOf(record: Pick<RunRecord, 'context'>): string | undefined {
  const caller = record.context?.caller;
  if (typeof caller !== 'object' || caller === null || Array.isArray(caller)) return undefined;
  const subject = (caller as Record<string, unknown>).subject;
  return typeof subject === 'string' && subject !== '' ? subject : undefined;
}
