import {
  AwakenError,
  type DecisionReceipt,
  type DecisionRejectionReason,
  type ToolCallDecision,
  type ToolCallDecisionInput,
  type ToolCallState,
  decisionControl,
  formatZodIssues,
  toolCallDecisionInputSchema,
  validateJsonSchema,
} from '@awaken/contract';
import { namesOf } from './run-result';
import type { RunSession } from './run-session';

function reject(decision: unknown, reason: DecisionRejectionReason, message: string): DecisionReceipt {
  return { ...namesOf(decision), status: 'rejected', reason, message };
}

/** The call waiting (or that waited) on a ticket; a suspended one first. */
function callWithTicket(session: RunSession, ticketId: string): ToolCallState | undefined {
  let found: ToolCallState | undefined;
  for (const state of session.batch.byId.values()) {
    if (state.ticket?.suspension.id !== ticketId) continue;
    if (state.status === 'suspended') return state;
    found ??= state;
  }
  return found;
}

/** What a validation yields: the receipt, and for an accepted decision its resolved form. */
export interface ValidatedDecision {
  receipt: DecisionReceipt;
  /** The decision addressed to its call (tool call id and current ticket id), when accepted. */
  decision?: ToolCallDecision;
  state?: ToolCallState;
}

/** Resolves what a decision names — a tool call id, a ticket id or both — to one call of the run. */
function resolveCall(session: RunSession, input: ToolCallDecisionInput): ToolCallState | DecisionReceipt {
  const { toolCallId, ticketId } = input;
  if (ticketId === undefined) {
    const state = toolCallId === undefined ? undefined : session.batch.byId.get(toolCallId);
    return state ?? reject(input, 'unknown_tool_call', `run ${session.runId} has no tool call ${toolCallId}`);
  }
  const state = callWithTicket(session, ticketId);
  if (!state) {
    return reject(
      input,
      'unknown_tool_call',
      `run ${session.runId} has no tool call with ticket ${ticketId}`,
    );
  }
  if (toolCallId !== undefined && toolCallId !== state.callId) {
    return reject(
      input,
      'invalid_payload',
      `ticket ${ticketId} belongs to tool call ${state.callId}, not ${toolCallId}`,
    );
  }
  return state;
}

/** Why the resolved call cannot take the decision now, if it cannot. */
function refusal(
  session: RunSession,
  input: ToolCallDecisionInput,
  state: ToolCallState,
): DecisionReceipt | undefined {
  const toolCallId = state.callId;
  const named = { ...input, toolCallId };
  if (state.status !== 'suspended') {
    return reject(named, 'not_suspended', `tool call ${toolCallId} is ${state.status}, not suspended`);
  }
  if (session.decisions.pending.some((queued) => queued.toolCallId === toolCallId)) {
    return reject(named, 'duplicate_conflict', `tool call ${toolCallId} already has a pending decision`);
  }
  const schema = state.ticket?.suspension.responseSchema;
  if (input.action !== 'resume' || !schema) return undefined;
  const issues = validateJsonSchema(schema, input.result);
  if (issues.length === 0) return undefined;
  const detail = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  return reject(
    named,
    'invalid_payload',
    `decision for ${toolCallId} does not match the response schema: ${detail}`,
  );
}

/**
 * Checks one decision against the run's current state. Never redirects a decision: an unknown call
 * or ticket, a ticket of another call, a call that is not suspended, or an invalid payload is
 * rejected and changes nothing. An accepted decision is returned addressed to its call and bound to
 * the ticket the call waits on.
 */
export function validateDecision(session: RunSession, input: ToolCallDecisionInput): ValidatedDecision {
  const shape = toolCallDecisionInputSchema.safeParse(input);
  if (!shape.success) {
    return {
      receipt: reject(input, 'invalid_payload', `malformed decision: ${formatZodIssues(shape.error.issues)}`),
    };
  }
  const { decisionId, ticketId: named } = input;
  const { applied, pending } = session.decisions;
  if (applied.has(decisionId) || pending.some((queued) => queued.decisionId === decisionId)) {
    const known =
      input.toolCallId ?? (named === undefined ? undefined : callWithTicket(session, named)?.callId);
    const target = {
      ...(known === undefined ? {} : { toolCallId: known }),
      ...(named ? { ticketId: named } : {}),
    };
    return { receipt: { ...target, decisionId, status: 'duplicate' } };
  }
  if (session.run.status === 'done') {
    return { receipt: reject(input, 'run_finished', `run ${session.runId} is finished`) };
  }
  if (session.activation.runController.signal.aborted) {
    return { receipt: reject(input, 'run_finished', `run ${session.runId} is being cancelled`) };
  }
  const state = resolveCall(session, input);
  if (!('callId' in state)) return { receipt: state };
  const refused = refusal(session, input, state);
  if (refused) return { receipt: refused };
  const toolCallId = state.callId;
  const ticketId = state.ticket?.suspension.id;
  const bound = ticketId === undefined ? {} : { ticketId };
  return {
    receipt: { toolCallId, ...bound, decisionId, status: 'accepted' },
    decision: { ...shape.data, toolCallId, ...bound },
    state,
  };
}

/**
 * Accepts decisions for the next RESUME gate: each is validated, written to the run-control inbox
 * (when there is one, so it survives this process) and queued; a parked run is woken. Without an
 * inbox, an activation that is stopping (detached, lease lost) refuses them (`not_live`).
 */
export async function acceptDecisions(
  session: RunSession,
  inputs: readonly ToolCallDecisionInput[],
): Promise<DecisionReceipt[]> {
  const receipts: DecisionReceipt[] = [];
  const { activation, services } = session;
  for (const input of inputs) {
    // stopping without an inbox: nothing would carry an accepted decision to the next activation
    if (activation.halt && !services.inbox) {
      receipts.push(
        reject(
          input,
          'not_live',
          `run ${session.runId} is stopping here (${activation.halt.message}); deliver decisions with runtime.decide(runId, decisions)`,
        ),
      );
      continue;
    }
    const validated = validateDecision(session, input);
    let receipt = validated.receipt;
    const decision = validated.decision;
    if (decision && session.services.inbox) {
      try {
        const stored = await session.services.inbox.put(session.runId, decisionControl(decision));
        if (stored === 'duplicate') receipt = { ...receipt, status: 'duplicate' };
      } catch (error) {
        if (!AwakenError.hasCode(error, 'conflict')) throw error;
        receipt = reject(decision, 'duplicate_conflict', error.message);
      }
    }
    if (decision && receipt.status === 'accepted') session.decisions.pending.push(decision);
    receipts.push(receipt);
  }
  if (receipts.some((receipt) => receipt.status === 'accepted')) session.activation.wake.notify();
  return receipts;
}
