import {
  type DecisionJudgement,
  type DecisionReceipt,
  type DecisionView,
  type ToolCallDecisionInput,
  judgeDecision,
  rejectedReceipt,
  runStarterOf,
} from '@awaken/contract';
import type { RunSession } from '../session/run-session';
import { putDecision } from './put-decision';
import { liveAskers } from './run-askers';

/**
 * The run as the judge sees it now: this session's calls, applied ids and accepted decisions. With
 * `clock`, the judge also refuses answers to expired tickets (a new answer); without it (a decision
 * accepted before, applied now) an accepted receipt is honoured even if the ticket expired since.
 */
function liveView(session: RunSession, clock: boolean): DecisionView {
  const startedBy = runStarterOf(session.run.record);
  return {
    ...(startedBy === undefined ? {} : { startedBy }),
    askers: liveAskers(session),
    ...(clock ? { now: session.now() } : {}),
    expired: new Set(session.run.bookkeeping.expiredTicketIds ?? []),
    runId: session.runId,
    status: session.run.status,
    ...(session.activation.runController.signal.aborted ? { closing: 'being cancelled' } : {}),
    calls: session.batch.byId.values(),
    applied: session.decisions.applied,
    pending: session.decisions.pending,
  };
}

/**
 * Judges one decision against the run as this session holds it (`judgeDecision`); `clock: false`
 * for a decision that was accepted before (expiry is not judged again).
 */
export function validateDecision(
  session: RunSession,
  input: unknown,
  options: { clock: boolean } = { clock: true },
): DecisionJudgement {
  return judgeDecision(liveView(session, options.clock), input);
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
        rejectedReceipt(
          input,
          'not_live',
          `run ${session.runId} is stopping here (${activation.halt.message}); deliver decisions with runtime.decide(runId, decisions)`,
        ),
      );
      continue;
    }
    const judged = validateDecision(session, input);
    let receipt: DecisionReceipt = judged.receipt;
    const decision = judged.decision;
    if (decision && services.inbox) receipt = await putDecision(services.inbox, session.runId, decision);
    if (decision && receipt.status === 'accepted') session.decisions.pending.push(decision);
    receipts.push(receipt);
  }
  if (receipts.some((receipt) => receipt.status === 'accepted')) session.activation.wake.notify();
  return receipts;
}
