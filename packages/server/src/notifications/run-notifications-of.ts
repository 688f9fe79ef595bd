import { createHash } from 'node:crypto';
import {
  type RunRecord,
  type SuspendTicket,
  readDecisionRecords,
  readToolCallStates,
  validateJsonSchema,
} from '@awaken/contract';
import type { NotificationEvent } from './webhook-endpoint';

/** The question a notification is about, as the human must see it. */
export interface NotifiedTicket {
  ticketId: string;
  toolCallId: string;
  /** The innermost tool that asks (for a sub-agent's question, the child's tool). */
  toolName: string;
  arguments?: unknown;
  message?: string;
  action?: string;
  expiresAt?: number;
  /** Agent ids from the top-level run's agent down to the agent that asks. */
  agentPath: string[];
  requiresDistinctApprover?: true;
  /** True when an approve / deny answers it (an approval link works for it). */
  approvable: boolean;
}

/** One thing to tell endpoints about a run: `key` is unique per event and subject, for ever. */
export interface RunNotification {
  key: string;
  event: NotificationEvent;
  data: Record<string, unknown>;
}

/** The link page answers approve / deny: only a replayed call whose schema takes an approval. */
function approvable(ticket: SuspendTicket): boolean {
  const schema = ticket.suspension.responseSchema;
  return (
    ticket.resumeMode === 'replay_tool_call' &&
    (schema === undefined || validateJsonSchema(schema, { approved: true }).length === 0)
  );
}

function ticketOf(
  record: RunRecord,
  ticket: SuspendTicket,
  toolCallId: string,
  toolName: string,
): NotifiedTicket {
  const nested = ticket.suspension.nested;
  return {
    ticketId: ticket.suspension.id,
    toolCallId,
    toolName: nested?.toolName ?? toolName,
    ...(nested ? { arguments: nested.arguments } : { arguments: ticket.pending.arguments }),
    message: ticket.suspension.message,
    action: ticket.suspension.action,
    ...(ticket.expiresAt === undefined ? {} : { expiresAt: ticket.expiresAt }),
    agentPath: nested?.agentPath ?? record.agentPath ?? [record.agentId],
    ...(ticket.suspension.requiresDistinctApprover ? { requiresDistinctApprover: true as const } : {}),
    approvable: approvable(ticket),
  };
}

function runOf(record: RunRecord) {
  return {
    runId: record.runId,
    threadId: record.threadId,
    agentId: record.agentId,
    status: record.status,
    ...(record.termination ? { termination: record.termination } : {}),
  };
}

/**
 * What a stored run has to tell, derived from the record alone (so a notification exists only for
 * what a checkpoint stored): one `approval.requested` per ticket it ever waited on while still
 * waiting, one `run.waiting` per distinct set of open tickets, one `approval.decided` per applied
 * decision (the audit trail), one `approval.expired` per expired call, one `run.failed` for a run
 * that ended with an error. Child runs tell nothing: their questions reach people through the
 * parent's ticket (`suspension.nested`, with the agent path).
 */
export function runNotificationsOf(record: RunRecord): RunNotification[] {
  if (record.parentRunId !== undefined) return [];
  const run = runOf(record);
  const notifications: RunNotification[] = [];
  const calls = readToolCallStates(record);
  const waiting = calls.filter((call) => call.status === 'suspended' && call.ticket);
  if (record.status === 'waiting' && waiting.length > 0) {
    const tickets = waiting.map((call) => ticketOf(record, call.ticket!, call.callId, call.toolName));
    for (const ticket of tickets) {
      notifications.push({
        key: `approval.requested:${record.runId}:${ticket.ticketId}`,
        event: 'approval.requested',
        data: { run, ticket },
      });
    }
    const ids = tickets.map((ticket) => ticket.ticketId).sort();
    const digest = createHash('sha256').update(JSON.stringify(ids)).digest('hex').slice(0, 16);
    notifications.push({
      key: `run.waiting:${record.runId}:${digest}`,
      event: 'run.waiting',
      data: { run, tickets },
    });
  }
  for (const decision of readDecisionRecords(record)) {
    if (decision.ticketId === undefined) continue;
    notifications.push({
      key: `approval.decided:${record.runId}:${decision.decisionId}`,
      event: 'approval.decided',
      data: {
        run,
        ticket: {
          ticketId: decision.ticketId,
          toolCallId: decision.toolCallId,
          toolName: decision.shown.toolName,
          arguments: decision.shown.arguments,
          message: decision.shown.message,
          ...(decision.shown.expiresAt === undefined ? {} : { expiresAt: decision.shown.expiresAt }),
        },
        decision: {
          decisionId: decision.decisionId,
          action: decision.answer.action,
          ...(decision.answer.approved === undefined ? {} : { approved: decision.answer.approved }),
          ...(decision.answer.reason === undefined ? {} : { reason: decision.answer.reason }),
          ...(decision.decidedBy === undefined ? {} : { decidedBy: decision.decidedBy }),
          ...(decision.channel === undefined ? {} : { channel: decision.channel }),
          decidedAt: decision.decidedAt,
        },
      },
    });
  }
  for (const call of calls) {
    if (call.status !== 'expired' || !call.ticket) continue;
    const ticket = ticketOf(record, call.ticket, call.callId, call.toolName);
    notifications.push({
      key: `approval.expired:${record.runId}:${ticket.ticketId}`,
      event: 'approval.expired',
      data: { run, ticket },
    });
  }
  if (record.status === 'done' && record.termination?.type === 'error') {
    notifications.push({ key: `run.failed:${record.runId}`, event: 'run.failed', data: { run } });
  }
  return notifications;
}
