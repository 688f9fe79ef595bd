import { AwakenError, type ToolCallDecisionInput } from '@awaken/contract';
import type { DecideResult, RunHandle } from '../../types';
import { queueDecisions } from '../decisions/queue-decisions';
import { rejectAll } from '../runtime/run-result';
import { readDecisionIds } from '../checkpoint/run-state-codec';
import type { RuntimeServices } from '../session/run-session';
import type { LiveRun } from '../activation/start-activation';

export interface DeliverContext {
  services: RuntimeServices;
  live: Map<string, LiveRun>;
  /** `resumeRun(runId, { decisions })` of this runtime. */
  resume(runId: string, decisions: ToolCallDecisionInput[]): RunHandle;
}

/** Starts an activation here; undefined while another activation (in any process) holds the run. */
async function tryResume(context: DeliverContext, runId: string, decisions: ToolCallDecisionInput[]) {
  if (context.live.has(runId)) return undefined;
  const handle = context.resume(runId, decisions);
  try {
    return { handle, receipts: await handle.receipts };
  } catch (error) {
    if (AwakenError.hasCode(error, 'run_busy')) return undefined;
    throw error;
  }
}

/**
 * Delivers decisions to a run wherever it is, given only its id. A run live in this runtime takes
 * them like `handle.decide`; a free run is resumed here with them; a run held by another process
 * gets them through its control inbox (checked first against the run as stored, so a stale one is
 * rejected now), and its owner applies them at its next gate. Without an inbox a run held elsewhere
 * cannot be reached: `run_busy`, nothing written.
 */
export async function deliverDecisions(
  context: DeliverContext,
  runId: string,
  decisions: ToolCallDecisionInput[],
): Promise<DecideResult> {
  const { services } = context;
  for (let attempt = 0; ; attempt += 1) {
    const entry = context.live.get(runId);
    if (entry) return { runId, delivery: 'live', receipts: await entry.decide(decisions) };
    const record = await services.store.getRun(runId);
    if (!record) throw new AwakenError('not_found', `run ${runId} not found`, { details: { runId } });
    if (record.status === 'done') {
      // a decision the run applied is a duplicate; any other comes too late
      const receipts = rejectAll(
        decisions,
        'run_finished',
        `run ${runId} is finished`,
        readDecisionIds(record),
      );
      return { runId, delivery: 'finished', receipts };
    }
    const resumed = await tryResume(context, runId, decisions);
    if (resumed) return { runId, delivery: 'resumed', ...resumed };
    // started here meanwhile: hand the decisions to that activation
    if (context.live.has(runId) && attempt < 3) continue;
    if (!services.inbox) {
      throw new AwakenError(
        'run_busy',
        `run ${runId} is held by another activation and there is no control inbox to reach it`,
        {
          details: { runId },
          retryable: true,
        },
      );
    }
    const receipts = await queueDecisions(
      { store: services.store, inbox: services.inbox, now: services.now },
      record,
      decisions,
    );
    if (!receipts.some((receipt) => receipt.status === 'accepted'))
      return { runId, delivery: 'queued', receipts };
    // the holder may have let go between the first attempt and the put: then resume here, and the
    // activation reads the queued decisions from the inbox at its gate
    const late = await tryResume(context, runId, []);
    return late
      ? { runId, delivery: 'resumed', receipts, handle: late.handle }
      : { runId, delivery: 'queued', receipts };
  }
}
