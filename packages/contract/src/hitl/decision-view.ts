import {
  readAppliedDecisionIds,
  readExpiredTicketIds,
  readQueuedDecisions,
  readToolCallStates,
} from '../run/read-run-state';
import type { RunRecord } from '../run/run-record';
import type { RunStatus } from '../run/run-status';
import type { ToolCallState } from '../tool/tool-call-state';
import type { ToolCallDecision } from './decision';
import { runStarterOf } from './decision-record';
import { runAskersOf } from './run-askers';

/**
 * What {@link judgeDecision} needs to know of a run: the same small view whether it comes from the
 * stored record ({@link decisionViewOf}) or from a live activation (the runtime builds one from its
 * session). Nothing here is copied: a live view may hand its own call states, so the judge's answer
 * names the very state an accepted decision is for.
 */
export interface DecisionView {
  runId: string;
  status: RunStatus;
  /** Why a run that is not `done` takes no more decisions (a live run being cancelled). */
  closing?: string;
  /** Every tool call the run knows, with its ticket while it waits. */
  calls: Iterable<ToolCallState>;
  /** Ids of the decisions the run applied (checkpointed): a repeat is a duplicate. */
  applied: ReadonlySet<string>;
  /**
   * Decisions accepted and not applied yet (a live queue, or the ones a checkpoint stored): a repeat
   * of one is a duplicate, and a different answer for the same call is refused.
   */
  pending: readonly ToolCallDecision[];
  /** The subject who started the run, when known: a four-eyes ticket refuses an answer from them. */
  startedBy?: string;
  /**
   * Everyone who asked for what the run does ({@link runAskersOf}: its starter, who steered or
   * resumed it with input, who edited a call's arguments): a four-eyes ticket refuses an answer from
   * any of them, and one through an approval link any of them issued.
   */
  askers?: ReadonlySet<string>;
  /**
   * The time the answer is judged at (epoch ms). With it, an answer for a ticket whose `expiresAt`
   * has passed is refused `ticket_expired`. Left out only where the answer was already accepted
   * before (a run applying the decisions its inbox holds): an accepted receipt is always honoured.
   */
  now?: number;
  /** Ids of tickets that expired earlier in the run (their calls may be gone from `calls`). */
  expired?: ReadonlySet<string>;
}

/**
 * The view of a run as stored: its checkpointed call states, applied decision ids and the decisions
 * it holds accepted. A finished run shows no calls (it takes no decision). `now` (epoch ms) lets the
 * judge refuse an answer to an expired ticket.
 */
export function decisionViewOf(
  record: Pick<RunRecord, 'runId' | 'status' | 'state'> & Partial<Pick<RunRecord, 'context'>>,
  now?: number,
): DecisionView {
  const startedBy = runStarterOf(record);
  return {
    ...(startedBy === undefined ? {} : { startedBy }),
    askers: new Set(runAskersOf(record)),
    ...(now === undefined ? {} : { now }),
    runId: record.runId,
    status: record.status,
    calls: record.status === 'done' ? [] : readToolCallStates(record),
    applied: readAppliedDecisionIds(record),
    expired: readExpiredTicketIds(record),
    pending: readQueuedDecisions(record),
  };
}
