import {
  type DecisionReceipt,
  type DecisionView,
  type RunControlInbox,
  type RunRecord,
  type ThreadRunStore,
  type ToolCallDecision,
  decisionViewOf,
  judgeDecision,
  readAppliedDecisionIds,
  readToolCallStates,
  duplicateReceipt,
  rejectedReceipt,
  ticketExpired,
} from '@awaken/contract';
import { type DecisionDesk, deskOf } from './decision-desk';
import { putDecision } from './put-decision';

/** The stores a decision for a run held elsewhere goes through. */
export interface DecisionStores {
  store: Pick<ThreadRunStore, 'getRun'>;
  inbox: RunControlInbox;
  /** The clock expiry is judged on (epoch ms; `Date.now` by default). */
  now?: () => number;
}

/**
 * Whether a decision stored in the inbox will be applied, judged on the run as stored after the put:
 * its call still waits on its ticket (nothing else can be applied before it: a second answer for the
 * ticket cannot enter the inbox while it is there), or it was applied already. Otherwise another
 * answer was applied and left the inbox between our read and our put — the one case the inbox alone
 * cannot see.
 */
function stillApplies(record: RunRecord | null | undefined, decision: ToolCallDecision): boolean {
  if (!record) return false;
  if (readAppliedDecisionIds(record).has(decision.decisionId)) return true;
  if (record.status === 'done') return false;
  const call = readToolCallStates(record).find((state) => state.callId === decision.toolCallId);
  if (call?.resume?.decisionId === decision.decisionId) return true;
  return call?.status === 'suspended' && call.ticket?.suspension.id === decision.ticketId;
}

/**
 * Decisions a caller already judged: the decision ids the shared answer rules (`judgeAnswers`)
 * accepted, bound to their call and ticket, on the stored run at `version`.
 */
export interface PrejudgedDecisions {
  version: number;
  decisionIds: ReadonlySet<string>;
}

export interface QueueDecisionsOptions {
  /**
   * While the run, read inside its turn, still stands at `prejudged.version`, the decisions named
   * there are not judged again (the same view gives the same judgement); every check after the
   * inbox write still runs. At any other version every decision is judged afresh.
   */
  prejudged?: PrejudgedDecisions;
}

/** The decision itself when it was judged on this very version of the run and accepted. */
function prejudgedDecision(
  prejudged: PrejudgedDecisions | undefined,
  record: RunRecord,
  input: unknown,
): ToolCallDecision | undefined {
  if (prejudged === undefined || prejudged.version !== record.version) return undefined;
  const decision = input as Partial<ToolCallDecision> | null;
  if (typeof decision?.decisionId !== 'string' || typeof decision.toolCallId !== 'string') return undefined;
  return prejudged.decisionIds.has(decision.decisionId) ? (decision as ToolCallDecision) : undefined;
}

/**
 * Delivers decisions to a run that this caller does not hold, through its durable inbox: each is
 * judged against the run as stored, written to the inbox (idempotent by `decisionId`; a second
 * answer for a ticket that has one pending is refused there, atomically), and judged once more on
 * the run as stored after the write. A receipt is `accepted` only if the decision will be applied:
 * two different answers for one call never both get one, in one process or many. A decision that
 * lost the race is taken back out of the inbox (its owner would drop it anyway) and answered
 * `duplicate_conflict` when another answer won, `run_finished` when the run ended meanwhile,
 * `ticket_expired` when the ticket's `expiresAt` passed (judged on `stores.now`).
 * Decisions for one run take turns within a process, each judged on the run as read in its turn,
 * so any number of identical decisions get one `accepted` (see {@link DecisionDesk}).
 */
export async function queueDecisions(
  stores: DecisionStores,
  record: RunRecord,
  decisions: readonly unknown[],
  options: QueueDecisionsOptions = {},
): Promise<DecisionReceipt[]> {
  // one turn per run in this process, judged on the run as read inside the turn (see DecisionDesk)
  const desk = deskOf(stores.inbox);
  return desk.inTurn(record.runId, async () => {
    const current = (await stores.store.getRun(record.runId)) ?? record;
    const receipts = await deliver(stores, current, decisions, options);
    for (const receipt of receipts) {
      if (receipt.status === 'accepted') desk.remember(record.runId, receipt.decisionId);
    }
    return receipts;
  });
}

async function deliver(
  stores: DecisionStores,
  record: RunRecord,
  decisions: readonly unknown[],
  options: QueueDecisionsOptions,
): Promise<DecisionReceipt[]> {
  const desk = deskOf(stores.inbox);
  const receipts: DecisionReceipt[] = [];
  const stored = new Map<number, ToolCallDecision>();
  const clock = stores.now ?? Date.now;
  let view: DecisionView | undefined;
  const judge = (input: unknown) => {
    view ??= decisionViewOf(record, clock());
    return judgeDecision(view, input);
  };
  for (const input of decisions) {
    const prejudged = prejudgedDecision(options.prejudged, record, input);
    const judged = prejudged ? { decision: prejudged } : judge(input);
    const decision = judged.decision;
    if (!decision) {
      receipts.push(judged.receipt);
      continue;
    }
    if (desk.wasAccepted(record.runId, decision.decisionId)) {
      receipts.push(duplicateReceipt(decision, decision.toolCallId));
      continue;
    }
    const receipt = await putDecision(stores.inbox, record.runId, decision);
    if (receipt.status === 'accepted') stored.set(receipts.length, decision);
    receipts.push(receipt);
  }
  if (stored.size === 0) return receipts;
  const now = await stores.store.getRun(record.runId);
  const lost: string[] = [];
  const judgedAt = clock();
  for (const [index, decision] of stored) {
    const call = now
      ? readToolCallStates(now).find((state) => state.callId === decision.toolCallId)
      : undefined;
    // the ticket ran out while the decision was being written: too late, never applied
    const late = call?.status === 'suspended' && ticketExpired(call.ticket, judgedAt);
    if (!late && stillApplies(now, decision)) continue;
    lost.push(decision.decisionId);
    receipts[index] = late
      ? rejectedReceipt(decision, 'ticket_expired', `the ticket of tool call ${decision.toolCallId} expired`)
      : now?.status === 'done'
        ? rejectedReceipt(decision, 'run_finished', `run ${record.runId} finished before the decision`)
        : rejectedReceipt(
            decision,
            'duplicate_conflict',
            `tool call ${decision.toolCallId} was answered by another decision`,
          );
  }
  if (lost.length > 0) await stores.inbox.remove(record.runId, lost);
  return receipts;
}
