import type { DecisionReceipt, DecisionRejectionReason } from './decision';

/** What a receipt can name of a decision that may be malformed (any value a caller passed). */
export function decisionNames(decision: unknown): {
  toolCallId?: string;
  ticketId?: string;
  decisionId: string;
} {
  const fields = (typeof decision === 'object' && decision !== null ? decision : {}) as Record<
    string,
    unknown
  >;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const toolCallId = text(fields.toolCallId);
  const ticketId = text(fields.ticketId);
  return {
    ...(toolCallId === undefined ? {} : { toolCallId }),
    ...(ticketId === undefined ? {} : { ticketId }),
    decisionId: text(fields.decisionId) ?? '',
  };
}

/** The receipt of a decision that goes no further, naming what is known of its target. */
export function rejectedReceipt(
  decision: unknown,
  reason: DecisionRejectionReason,
  message: string,
): DecisionReceipt {
  return { ...decisionNames(decision), status: 'rejected', reason, message };
}

/**
 * The receipt of a decision the run already applied (or holds accepted): it will not apply twice.
 * `toolCallId` fills in the call when the decision named only its ticket.
 */
export function duplicateReceipt(decision: unknown, toolCallId?: string): DecisionReceipt {
  const names = decisionNames(decision);
  return {
    ...names,
    ...(names.toolCallId === undefined && toolCallId !== undefined ? { toolCallId } : {}),
    status: 'duplicate',
  };
}
