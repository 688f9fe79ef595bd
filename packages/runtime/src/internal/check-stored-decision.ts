import {
  type DecisionReceipt,
  type RunRecord,
  type ToolCallDecisionInput,
  type ToolCallState,
  formatZodIssues,
  toolCallDecisionInputSchema,
  validateJsonSchema,
} from '@awaken/contract';
import { namesOf } from './run-result';
import { readToolCallStates } from './run-state';

function rejected(
  decision: unknown,
  reason: Extract<DecisionReceipt, { status: 'rejected' }>['reason'],
  message: string,
): DecisionReceipt {
  return { ...namesOf(decision), status: 'rejected', reason, message };
}

/** The call a decision names: by tool call id, else by the ticket it waits on. */
function findCall(calls: readonly ToolCallState[], decision: ToolCallDecisionInput) {
  if (decision.toolCallId !== undefined) return calls.find((call) => call.callId === decision.toolCallId);
  return calls.find((call) => call.ticket?.suspension.id === decision.ticketId);
}

/**
 * Checks a decision for a run held by another activation against the run as stored, before it is
 * queued in the run's inbox: a malformed decision, a finished run, an unknown call or ticket, a
 * ticket of another call, a call that is not suspended, or a result failing the ticket's response
 * schema is rejected now. A run that is `running` is checked by its owner at its next gate. Returns
 * the decision addressed to its call (and ticket), or the receipt of a decision that goes no further.
 */
export function checkStoredDecision(
  record: RunRecord,
  calls: readonly ToolCallState[],
  input: unknown,
): ToolCallDecisionInput | DecisionReceipt {
  const shape = toolCallDecisionInputSchema.safeParse(input);
  if (!shape.success) {
    return rejected(input, 'invalid_payload', `malformed decision: ${formatZodIssues(shape.error.issues)}`);
  }
  const decision = shape.data;
  if (record.status === 'done') return rejected(decision, 'run_finished', `run ${record.runId} is finished`);
  if (record.status !== 'waiting') return decision;
  const call = findCall(calls, decision);
  const named = decision.toolCallId ?? decision.ticketId;
  if (!call)
    return rejected(decision, 'unknown_tool_call', `run ${record.runId} has no tool call or ticket ${named}`);
  const ticketId = call.ticket?.suspension.id;
  const addressed = { ...decision, toolCallId: call.callId, ...(ticketId ? { ticketId } : {}) };
  if (decision.ticketId !== undefined && decision.ticketId !== ticketId) {
    return rejected(
      decision,
      'invalid_payload',
      `ticket ${decision.ticketId} does not belong to tool call ${call.callId}`,
    );
  }
  if (call.resume?.decisionId === decision.decisionId) {
    return { toolCallId: call.callId, decisionId: decision.decisionId, status: 'duplicate' };
  }
  if (call.status !== 'suspended') {
    return rejected(addressed, 'not_suspended', `tool call ${call.callId} is ${call.status}, not suspended`);
  }
  const schema = call.ticket?.suspension.responseSchema;
  const issues = decision.action === 'resume' && schema ? validateJsonSchema(schema, decision.result) : [];
  if (issues.length > 0) {
    const detail = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
    return rejected(
      addressed,
      'invalid_payload',
      `decision for ${call.callId} does not match the response schema: ${detail}`,
    );
  }
  return addressed;
}

/** The stored run's tool call states, read once for a batch of decisions. */
export function storedCalls(record: RunRecord): ToolCallState[] {
  return record.status === 'waiting' ? readToolCallStates(record) : [];
}
