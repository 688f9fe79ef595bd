import {
  type DecisionReceipt,
  type RunRecord,
  type ToolCallDecisionInput,
  type ToolCallState,
  formatZodIssues,
  toolCallDecisionInputSchema,
  validateJsonSchema,
} from '@awaken/contract';
import { duplicateOf, namesOf } from './run-result';
import { readDecisionIds, readToolCallStates } from './run-state';

function rejected(
  decision: unknown,
  reason: Extract<DecisionReceipt, { status: 'rejected' }>['reason'],
  message: string,
): DecisionReceipt {
  return { ...namesOf(decision), status: 'rejected', reason, message };
}

/**
 * The call a decision names: by tool call id, else by the ticket it waits on. A tool call id may
 * also be given a ticket id (protocol adapters expose ticket ids as the ids of the calls).
 */
function findCall(calls: readonly ToolCallState[], decision: ToolCallDecisionInput) {
  const ticketOf = (call: ToolCallState) => call.ticket?.suspension.id;
  if (decision.toolCallId !== undefined) {
    const byId = calls.find((call) => call.callId === decision.toolCallId);
    return byId ?? calls.find((call) => ticketOf(call) === decision.toolCallId);
  }
  return calls.find((call) => ticketOf(call) === decision.ticketId);
}

/** A stored run as decisions are checked against it: its tool call states and known decision ids. */
interface StoredRun {
  record: RunRecord;
  calls: readonly ToolCallState[];
  /** Applied (checkpointed) or queued in the record: a decision with one of these ids is a duplicate. */
  decisionIds: ReadonlySet<string>;
}

function checkOne(run: StoredRun, input: unknown): ToolCallDecisionInput | DecisionReceipt {
  const { record, calls } = run;
  const shape = toolCallDecisionInputSchema.safeParse(input);
  if (!shape.success) {
    return rejected(input, 'invalid_payload', `malformed decision: ${formatZodIssues(shape.error.issues)}`);
  }
  const decision = shape.data;
  if (run.decisionIds.has(decision.decisionId)) {
    return duplicateOf(decision, findCall(calls, decision)?.callId);
  }
  if (record.status === 'done') return rejected(decision, 'run_finished', `run ${record.runId} is finished`);
  const call = findCall(calls, decision);
  if (record.status !== 'waiting') {
    // its owner checks it at its next gate; a decision naming only its ticket is named for its call
    return decision.toolCallId === undefined && call ? { ...decision, toolCallId: call.callId } : decision;
  }
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
  if (call.resume?.decisionId === decision.decisionId) return duplicateOf(decision, call.callId);
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

/**
 * Checks decisions for a run that this caller does not hold against the run as stored, before they
 * are queued in its control inbox (by `runtime.decide`, or a server delivering a user's click). Each
 * result is either the decision addressed to its call (and ticket), to be queued, or the receipt of
 * one that goes no further:
 * - `duplicate` when the run already applied a decision with that id (its checkpointed applied ids
 *   are the dedupe truth) or holds it queued — whether the run still waits, runs on, or is done;
 * - rejected: malformed (`invalid_payload`), the run is finished (`run_finished`), an unknown call or
 *   ticket (`unknown_tool_call`), a ticket of another call or a result failing the ticket's response
 *   schema (`invalid_payload`), a call that is not suspended (`not_suspended`).
 * A run that is `created` or `running` is checked by its owner at its next gate (only duplicates are
 * answered here). Never redirects a decision to a call other than the one it names.
 */
export function checkStoredDecisions(
  record: RunRecord,
  decisions: readonly unknown[],
): Array<ToolCallDecisionInput | DecisionReceipt> {
  const run: StoredRun = {
    record,
    calls: record.status === 'done' ? [] : readToolCallStates(record),
    decisionIds: readDecisionIds(record),
  };
  return decisions.map((input) => checkOne(run, input));
}
