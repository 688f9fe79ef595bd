import {
  AwakenError,
  type DecisionReceipt,
  type DecisionRejectionReason,
  type ToolCallDecision,
  type ToolCallState,
  decisionControl,
  formatZodIssues,
  toolCallDecisionSchema,
  validateJsonSchema,
} from '@awaken/contract';
import { commitCheckpoint } from './checkpoint';
import { applyCancels, peekControls, removeControls } from './run-controls';
import type { RunSession } from './run-session';
import { cancelCall, moveCall } from './tool-pipeline';

function reject(
  decision: ToolCallDecision,
  reason: DecisionRejectionReason,
  message: string,
): DecisionReceipt {
  return {
    toolCallId: decision.toolCallId,
    decisionId: decision.decisionId,
    status: 'rejected',
    reason,
    message,
  };
}

/**
 * Checks one decision against the run's current state. Never redirects a decision: an unknown call,
 * a call that is not suspended, or an invalid payload is rejected and changes nothing.
 */
export function validateDecision(session: RunSession, decision: ToolCallDecision): DecisionReceipt {
  const shape = toolCallDecisionSchema.safeParse(decision);
  if (!shape.success) {
    return reject(decision, 'invalid_payload', `malformed decision: ${formatZodIssues(shape.error.issues)}`);
  }
  const { toolCallId, decisionId } = decision;
  if (
    session.decisionIds.has(decisionId) ||
    session.queue.some((queued) => queued.decisionId === decisionId)
  ) {
    return { toolCallId, decisionId, status: 'duplicate' };
  }
  if (session.status === 'done') return reject(decision, 'run_finished', `run ${session.runId} is finished`);
  if (session.runController.signal.aborted) {
    return reject(decision, 'run_finished', `run ${session.runId} is being cancelled`);
  }
  const state = session.calls.get(toolCallId);
  if (!state)
    return reject(decision, 'unknown_tool_call', `run ${session.runId} has no tool call ${toolCallId}`);
  if (state.status !== 'suspended') {
    return reject(decision, 'not_suspended', `tool call ${toolCallId} is ${state.status}, not suspended`);
  }
  if (session.queue.some((queued) => queued.toolCallId === toolCallId)) {
    return reject(decision, 'duplicate_conflict', `tool call ${toolCallId} already has a pending decision`);
  }
  const schema = state.ticket?.suspension.responseSchema;
  if (decision.action === 'resume' && schema) {
    const issues = validateJsonSchema(schema, decision.result);
    if (issues.length > 0) {
      const detail = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
      return reject(
        decision,
        'invalid_payload',
        `decision for ${toolCallId} does not match the response schema: ${detail}`,
      );
    }
  }
  return { toolCallId, decisionId, status: 'accepted' };
}

/** Validates and queues decisions (and writes accepted ones to the durable inbox, when configured). */
export async function submitDecisions(
  session: RunSession,
  decisions: readonly ToolCallDecision[],
): Promise<DecisionReceipt[]> {
  const receipts: DecisionReceipt[] = [];
  for (const decision of decisions) {
    let receipt = validateDecision(session, decision);
    if (receipt.status === 'accepted' && session.services.controlInbox) {
      try {
        const stored = await session.services.controlInbox.put(session.runId, decisionControl(decision));
        if (stored === 'duplicate') receipt = { ...receipt, status: 'duplicate' };
      } catch (error) {
        if (!AwakenError.hasCode(error, 'conflict')) throw error;
        receipt = reject(decision, 'duplicate_conflict', error.message);
      }
    }
    if (receipt.status === 'accepted') session.queue.push(decision);
    receipts.push(receipt);
  }
  if (receipts.some((receipt) => receipt.status === 'accepted')) session.wake.notify();
  return receipts;
}

async function applyOne(
  session: RunSession,
  state: ToolCallState,
  decision: ToolCallDecision,
): Promise<void> {
  const { toolCallId, ...resume } = decision;
  state.resume = resume;
  session.decisionIds.add(decision.decisionId);
  await session.emit({ type: 'tool_call_resumed', toolCallId, decision });
  if (decision.action === 'cancel') {
    await cancelCall(session, state, decision.reason ?? 'cancelled by decision');
    return;
  }
  moveCall(session, state, 'resuming');
}

/**
 * The RESUME_TOOL_CALL gate: takes queued and inbox decisions and moves each matching suspended
 * call to `resuming` (or `cancelled`). Decisions that no longer match are dropped with an `error`
 * event. Inbox entries are only peeked: the ones applied are recorded by a checkpoint before exactly
 * the entries read are removed, so a process that dies in between loses nothing, and a decision that
 * arrived after the peek stays for the next gate. Returns the calls that changed.
 */
export async function applyDecisions(session: RunSession): Promise<ToolCallState[]> {
  const candidates = session.queue;
  session.queue = [];
  const controls = await peekControls(session);
  applyCancels(session, controls);
  const read = controls.flatMap((control) => (control.kind === 'decision' ? [control] : []));
  candidates.push(...read.map((control) => control.decision));
  const changed: ToolCallState[] = [];
  for (const decision of candidates) {
    if (session.decisionIds.has(decision.decisionId)) continue;
    const receipt = validateDecision(session, decision);
    const state = session.calls.get(decision.toolCallId);
    if (receipt.status !== 'accepted' || !state) {
      const message = receipt.status === 'rejected' ? receipt.message : 'duplicate decision';
      await session.emit({ type: 'error', code: 'decision_rejected', message });
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
