import {
  AwakenError,
  type DecisionReceipt,
  type DecisionRejectionReason,
  type ToolCallDecision,
  type ToolCallState,
  formatZodIssues,
  toolCallDecisionSchema,
  validateJsonSchema,
} from '@awaken/contract';
import { commitCheckpoint } from './checkpoint';
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
    if (receipt.status === 'accepted' && session.services.decisionInbox) {
      try {
        const stored = await session.services.decisionInbox.put(session.runId, decision);
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
 * Makes the decisions read from the inbox durable in the run record before the inbox forgets them:
 * a checkpoint records the applied ones (ids, the resumed calls with their decisions), then the
 * inbox is drained. Decisions that arrived after the peek are queued and checkpointed as pending.
 * A process that dies after taking a decision therefore never loses it.
 */
async function acknowledgeInbox(
  session: RunSession,
  peeked: readonly ToolCallDecision[],
  applied: number,
): Promise<void> {
  const inbox = session.services.decisionInbox;
  if (!inbox || peeked.length === 0) return;
  if (applied > 0) await commitCheckpoint(session, 'tool_results_committed');
  const seen = new Set(peeked.map((decision) => decision.decisionId));
  const known = (id: string) =>
    seen.has(id) || session.decisionIds.has(id) || session.queue.some((queued) => queued.decisionId === id);
  const late = (await inbox.drain(session.runId)).filter((decision) => !known(decision.decisionId));
  if (late.length === 0) return;
  session.queue.push(...late);
  await commitCheckpoint(session, 'tool_results_committed');
}

/**
 * The RESUME_TOOL_CALL gate: takes queued and inbox decisions and moves each matching suspended
 * call to `resuming` (or `cancelled`). Decisions that no longer match are dropped with an `error`
 * event. Inbox decisions are peeked, and drained only once checkpointed. Returns the calls that changed.
 */
export async function applyDecisions(session: RunSession): Promise<ToolCallState[]> {
  const drained = session.queue;
  session.queue = [];
  const inbox = session.services.decisionInbox;
  const peeked = inbox ? await inbox.peek(session.runId) : [];
  drained.push(...peeked);
  const changed: ToolCallState[] = [];
  for (const decision of drained) {
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
  await acknowledgeInbox(session, peeked, changed.length);
  return changed;
}
