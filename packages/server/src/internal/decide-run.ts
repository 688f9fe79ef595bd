import {
  AwakenError,
  type DecisionReceipt,
  type DecisionRejectionReason,
  type RunRecord,
  type ToolCallDecisionInput,
  type ToolCallState,
  decisionControl,
  formatZodIssues,
  toolCallDecisionInputSchema,
  validateJsonSchema,
} from '@awaken/contract';
import { readToolCallStates } from '@awaken/runtime';
import type { DecideResult } from '../types';
import { enqueueResume } from './enqueue-resume';
import type { ServiceContext } from './service-context';

function rejected(
  decision: { toolCallId?: unknown; ticketId?: unknown; decisionId?: unknown },
  reason: DecisionRejectionReason,
  message: string,
): DecisionReceipt {
  return {
    ...(typeof decision.toolCallId === 'string' ? { toolCallId: decision.toolCallId } : {}),
    ...(typeof decision.ticketId === 'string' ? { ticketId: decision.ticketId } : {}),
    decisionId: String(decision.decisionId ?? ''),
    status: 'rejected',
    reason,
    message,
  };
}

/** The call a decision names: by tool call id, else by its ticket (suspension) id. */
function findCall(
  calls: readonly ToolCallState[],
  decision: ToolCallDecisionInput,
): ToolCallState | undefined {
  const ticketOf = (call: ToolCallState) => call.ticket?.suspension.id;
  if (decision.toolCallId !== undefined) {
    const byId = calls.find((call) => call.callId === decision.toolCallId);
    // a tool call id may also be given a ticket id (protocol ids are ticket ids)
    return byId ?? calls.find((call) => ticketOf(call) === decision.toolCallId);
  }
  return calls.find((call) => ticketOf(call) === decision.ticketId);
}

/**
 * Checks a decision for a waiting run against its stored tool call states, never redirecting it:
 * unknown call, call not suspended, or a result failing the suspension's response schema is
 * rejected. A decision already applied to its call is a duplicate. Returns the decision addressed
 * by tool call id.
 */
function checkAgainstWaitingRun(
  record: RunRecord,
  calls: readonly ToolCallState[],
  decision: ToolCallDecisionInput,
): ToolCallDecisionInput | DecisionReceipt {
  const call = findCall(calls, decision);
  const named = decision.toolCallId ?? decision.ticketId;
  if (!call)
    return rejected(decision, 'unknown_tool_call', `run ${record.runId} has no tool call or ticket ${named}`);
  const ticketId = call.ticket?.suspension.id;
  if (decision.ticketId !== undefined && decision.ticketId !== ticketId) {
    return rejected(
      decision,
      'unknown_tool_call',
      `ticket ${decision.ticketId} is not the open ticket of tool call ${call.callId}`,
    );
  }
  const addressed = { ...decision, toolCallId: call.callId, ...(ticketId ? { ticketId } : {}) };
  if (call.resume?.decisionId === decision.decisionId) {
    return { toolCallId: call.callId, decisionId: decision.decisionId, status: 'duplicate' };
  }
  if (call.status !== 'suspended') {
    return rejected(addressed, 'not_suspended', `tool call ${call.callId} is ${call.status}, not suspended`);
  }
  const schema = call.ticket?.suspension.responseSchema;
  if (decision.action === 'resume' && schema) {
    const issues = validateJsonSchema(schema, decision.result);
    if (issues.length > 0) {
      const detail = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
      return rejected(
        addressed,
        'invalid_payload',
        `decision for ${call.callId} does not match the response schema: ${detail}`,
      );
    }
  }
  return addressed;
}

async function store(
  context: ServiceContext,
  runId: string,
  decision: ToolCallDecisionInput,
): Promise<DecisionReceipt> {
  try {
    const status = await context.stores.inbox.put(runId, decisionControl(decision));
    const target = {
      // a decision for an executing run may name only its ticket: the run resolves it
      toolCallId: decision.toolCallId ?? '',
      ...(decision.ticketId ? { ticketId: decision.ticketId } : {}),
      decisionId: decision.decisionId,
    };
    return status === 'stored' ? { ...target, status: 'accepted' } : { ...target, status: 'duplicate' };
  } catch (error) {
    if (!AwakenError.hasCode(error, 'conflict')) throw error;
    return rejected(decision, 'duplicate_conflict', error.message);
  }
}

/**
 * Delivers decisions to a run, whichever process executes it: each accepted decision is written to
 * the run's durable inbox (idempotent by `decisionId`). A live activation anywhere is woken by the
 * inbox and applies it at its next gate; a waiting run gets one resume dispatch for the same run id,
 * deduplicated, so any number of identical decisions produce one resume.
 */
export async function decideRun(
  context: ServiceContext,
  record: RunRecord,
  decisions: readonly unknown[],
): Promise<DecideResult> {
  const receipts: DecisionReceipt[] = [];
  const calls = record.status === 'waiting' ? readToolCallStates(record) : [];
  for (const input of decisions) {
    const shape = toolCallDecisionInputSchema.safeParse(input);
    const raw = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
    if (!shape.success) {
      receipts.push(
        rejected(raw, 'invalid_payload', `malformed decision: ${formatZodIssues(shape.error.issues)}`),
      );
      continue;
    }
    if (record.status === 'done') {
      receipts.push(rejected(shape.data, 'run_finished', `run ${record.runId} is finished`));
      continue;
    }
    const checked =
      record.status === 'waiting' ? checkAgainstWaitingRun(record, calls, shape.data) : shape.data;
    receipts.push('status' in checked ? checked : await store(context, record.runId, checked));
  }
  const delivered = receipts.some((receipt) => receipt.status !== 'rejected');
  if (record.status !== 'waiting' || !delivered) return { runId: record.runId, receipts };
  const resume = await enqueueResume(context, record);
  return { runId: record.runId, receipts, ...(resume ? { resumeDispatchId: resume.dispatchId } : {}) };
}
