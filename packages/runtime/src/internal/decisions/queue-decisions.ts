import {
  AwakenError,
  type DecisionReceipt,
  type RunControlInbox,
  type RunRecord,
  type ThreadRunStore,
  type ToolCallDecision,
  type ToolCallDecisionInput,
  decisionControl,
  decisionViewOf,
  judgeDecision,
  readAppliedDecisionIds,
  readToolCallStates,
  rejectedReceipt,
} from '@awaken/contract';

/** The stores a decision for a run held elsewhere goes through. */
export interface DecisionStores {
  store: Pick<ThreadRunStore, 'getRun'>;
  inbox: RunControlInbox;
}

/** Writes one judged decision to the run's inbox: `accepted` once it is durably there. */
async function put(
  inbox: RunControlInbox,
  runId: string,
  decision: ToolCallDecisionInput,
): Promise<DecisionReceipt> {
  const { toolCallId, ticketId, decisionId } = decision;
  // a deferred decision may name only its ticket: the run's owner resolves its call
  const target = {
    toolCallId: toolCallId ?? '',
    ...(ticketId === undefined ? {} : { ticketId }),
    decisionId,
  };
  try {
    const stored = await inbox.put(runId, decisionControl(decision));
    return { ...target, status: stored === 'stored' ? 'accepted' : 'duplicate' };
  } catch (error) {
    if (!AwakenError.hasCode(error, 'conflict')) throw error;
    return rejectedReceipt(decision, 'duplicate_conflict', error.message);
  }
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
 * Delivers decisions to a run that this caller does not hold, through its durable inbox: each is
 * judged against the run as stored, written to the inbox (idempotent by `decisionId`; a second
 * answer for a ticket that has one pending is refused there, atomically), and judged once more on
 * the run as stored after the write. A receipt is `accepted` only if the decision will be applied:
 * two different answers for one call never both get one, in one process or many. A decision that
 * lost the race is taken back out of the inbox (its owner would drop it anyway) and answered
 * `duplicate_conflict` when another answer won, `run_finished` when the run ended meanwhile.
 */
export async function queueDecisions(
  stores: DecisionStores,
  record: RunRecord,
  decisions: readonly unknown[],
): Promise<DecisionReceipt[]> {
  const receipts: DecisionReceipt[] = [];
  const stored = new Map<number, ToolCallDecision>();
  const view = decisionViewOf(record);
  for (const input of decisions) {
    const judged = judgeDecision(view, input);
    const decision = judged.decision ?? judged.deferred;
    if (judged.receipt && judged.receipt.status !== 'accepted') {
      receipts.push(judged.receipt);
      continue;
    }
    if (!decision) continue;
    const receipt = await put(stores.inbox, record.runId, decision);
    // a deferred decision is judged by the run's owner; a judged one is checked once more here
    if (receipt.status === 'accepted' && judged.decision) stored.set(receipts.length, judged.decision);
    receipts.push(receipt);
  }
  if (stored.size === 0) return receipts;
  const now = await stores.store.getRun(record.runId);
  const lost: string[] = [];
  for (const [index, decision] of stored) {
    if (stillApplies(now, decision)) continue;
    lost.push(decision.decisionId);
    receipts[index] =
      now?.status === 'done'
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
