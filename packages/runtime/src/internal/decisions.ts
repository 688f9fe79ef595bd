import {
  AwakenError,
  type DecisionReceipt,
  type DecisionRejectionReason,
  type ToolCallDecision,
  type ToolCallDecisionInput,
  type ToolCallState,
  decisionControl,
  declinedCallMessage,
  formatZodIssues,
  readApproval,
  toolCallDecisionInputSchema,
  validateJsonSchema,
} from '@awaken/contract';
import { commitCheckpoint } from './checkpoint';
import { applyCancels, peekControls, removeControls } from './run-controls';
import type { RunSession } from './run-session';
import { cancelCall, moveCall } from './tool-pipeline';

type Named = Pick<ToolCallDecisionInput, 'toolCallId' | 'ticketId' | 'decisionId'>;

function reject(decision: Named, reason: DecisionRejectionReason, message: string): DecisionReceipt {
  return {
    ...(decision.toolCallId === undefined ? {} : { toolCallId: decision.toolCallId }),
    ...(decision.ticketId === undefined ? {} : { ticketId: decision.ticketId }),
    decisionId: decision.decisionId,
    status: 'rejected',
    reason,
    message,
  };
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
function resolveCall(
  session: RunSession,
  decision: ToolCallDecisionInput,
): { state: ToolCallState } | { receipt: DecisionReceipt } {
  const { toolCallId, ticketId } = decision;
  if (ticketId !== undefined) {
    const state = callWithTicket(session, ticketId);
    if (!state) {
      return {
        receipt: reject(
          decision,
          'unknown_tool_call',
          `run ${session.runId} has no tool call with ticket ${ticketId}`,
        ),
      };
    }
    if (toolCallId !== undefined && toolCallId !== state.callId) {
      return {
        receipt: reject(
          decision,
          'invalid_payload',
          `ticket ${ticketId} belongs to tool call ${state.callId}, not ${toolCallId}`,
        ),
      };
    }
    return { state };
  }
  const state = toolCallId === undefined ? undefined : session.batch.byId.get(toolCallId);
  if (!state) {
    return {
      receipt: reject(decision, 'unknown_tool_call', `run ${session.runId} has no tool call ${toolCallId}`),
    };
  }
  return { state };
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
  const { decisionId } = input;
  if (
    session.decisions.applied.has(decisionId) ||
    session.decisions.pending.some((queued) => queued.decisionId === decisionId)
  ) {
    const known =
      input.toolCallId ??
      (input.ticketId === undefined ? undefined : callWithTicket(session, input.ticketId)?.callId);
    return {
      receipt: {
        ...(known === undefined ? {} : { toolCallId: known }),
        ...(input.ticketId === undefined ? {} : { ticketId: input.ticketId }),
        decisionId,
        status: 'duplicate',
      },
    };
  }
  if (session.run.status === 'done') {
    return { receipt: reject(input, 'run_finished', `run ${session.runId} is finished`) };
  }
  if (session.activation.runController.signal.aborted) {
    return { receipt: reject(input, 'run_finished', `run ${session.runId} is being cancelled`) };
  }
  const resolved = resolveCall(session, input);
  if ('receipt' in resolved) return resolved;
  const { state } = resolved;
  const toolCallId = state.callId;
  const named = { ...input, toolCallId };
  if (state.status !== 'suspended') {
    return {
      receipt: reject(named, 'not_suspended', `tool call ${toolCallId} is ${state.status}, not suspended`),
    };
  }
  if (session.decisions.pending.some((queued) => queued.toolCallId === toolCallId)) {
    return {
      receipt: reject(named, 'duplicate_conflict', `tool call ${toolCallId} already has a pending decision`),
    };
  }
  const schema = state.ticket?.suspension.responseSchema;
  if (input.action === 'resume' && schema) {
    const issues = validateJsonSchema(schema, input.result);
    if (issues.length > 0) {
      const detail = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
      return {
        receipt: reject(
          named,
          'invalid_payload',
          `decision for ${toolCallId} does not match the response schema: ${detail}`,
        ),
      };
    }
  }
  const ticketId = state.ticket?.suspension.id;
  const decision: ToolCallDecision = {
    ...shape.data,
    toolCallId,
    ...(ticketId === undefined ? {} : { ticketId }),
  };
  return {
    receipt: { toolCallId, ...(ticketId === undefined ? {} : { ticketId }), decisionId, status: 'accepted' },
    decision,
    state,
  };
}

/** Validates and queues decisions (and writes accepted ones to the durable inbox, when configured). */
export async function submitDecisions(
  session: RunSession,
  inputs: readonly ToolCallDecisionInput[],
): Promise<DecisionReceipt[]> {
  const receipts: DecisionReceipt[] = [];
  for (const input of inputs) {
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

async function applyOne(
  session: RunSession,
  state: ToolCallState,
  decision: ToolCallDecision,
): Promise<void> {
  const { toolCallId, ticketId: _ticketId, ...resume } = decision;
  state.resume = resume;
  session.decisions.applied.add(decision.decisionId);
  await session.events.emit({ type: 'tool_call_resumed', toolCallId, decision });
  if (decision.action === 'cancel') {
    await cancelCall(session, state, decision.reason ?? 'cancelled by decision');
    return;
  }
  // the contract's approval payload holds for every plugin's replayed ticket: a refusal never runs
  // the call, and edited arguments replace the model's for this and every later execution
  const approval =
    state.ticket?.resumeMode === 'replay_tool_call' ? readApproval(decision.result) : undefined;
  if (approval?.approved === false) {
    await cancelCall(session, state, declinedCallMessage(state.toolName, approval.reason ?? decision.reason));
    return;
  }
  if (approval?.editedArguments !== undefined) state.editedArguments = approval.editedArguments;
  moveCall(session, state, 'resuming');
}

/**
 * The RESUME_TOOL_CALL gate: takes queued and inbox decisions and moves each matching suspended
 * call to `resuming` (or `cancelled`). Inbox decisions may name their call by tool call id or by
 * ticket id, like the ones given to `decide`; each is validated (and bound to its ticket) here.
 * Decisions that no longer match are dropped with an `error` event. Inbox entries are only peeked:
 * the ones applied are recorded by a checkpoint before exactly the entries read are removed, so a
 * process that dies in between loses nothing, and a decision that arrived after the peek stays for
 * the next gate. Returns the calls that changed.
 */
export async function applyDecisions(session: RunSession): Promise<ToolCallState[]> {
  const candidates: ToolCallDecisionInput[] = session.decisions.pending;
  session.decisions.pending = [];
  const controls = await peekControls(session);
  applyCancels(session, controls);
  const read = controls.flatMap((control) => (control.kind === 'decision' ? [control] : []));
  candidates.push(...read.map((control) => control.decision));
  const changed: ToolCallState[] = [];
  for (const candidate of candidates) {
    if (session.decisions.applied.has(candidate.decisionId)) continue;
    const { receipt, decision, state } = validateDecision(session, candidate);
    if (!decision || !state) {
      const message = receipt.status === 'rejected' ? receipt.message : 'duplicate decision';
      await session.events.emit({ type: 'error', code: 'decision_rejected', message });
      continue;
    }
    await applyOne(session, state, decision);
    changed.push(state);
  }
  if (changed.length > 0 && read.length > 0) await commitCheckpoint(session, 'tool_results_committed');
  await removeControls(
    session,
    read.map((control) => control.id),
  );
  return changed;
}
