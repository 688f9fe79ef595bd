import type { AgentEvent, DecisionReceipt, RunRecord, ToolCallDecisionInput } from '@awaken/contract';
import type { RunHandle, RunResult } from '../../types';
import { acceptDecisions } from '../decisions/accept-decisions';
import { decisionList } from './entry-options';
import type { EventChannel } from '../session/event-channel';
import { rejectAll } from '../runtime/run-result';
import { readDecisionIds } from '../checkpoint/run-state-codec';
import type { RunSession } from '../session/run-session';

export interface RunHandleParts {
  runId: string;
  /** Known at once for new runs; after loading for resumed ones. */
  threadId(): string;
  channel: EventChannel<AgentEvent>;
  /** The run as loaded: a session, or the record of a finished run. */
  loaded: Promise<RunSession | RunRecord>;
  result: Promise<RunResult>;
  receipts: Promise<DecisionReceipt[]>;
  cancel(reason?: string): void;
  detach(reason?: string): void;
}

/**
 * A handle's `decide`: decisions go to the run's live activation, which accepts them for its next
 * RESUME gate; a finished run, or one whose activations here ended, rejects them.
 */
async function decide(parts: RunHandleParts, decisions: ToolCallDecisionInput[]): Promise<DecisionReceipt[]> {
  const found = await parts.loaded;
  const finished = `run ${parts.runId} is finished`;
  if (!('services' in found)) return rejectAll(decisions, 'run_finished', finished, readDecisionIds(found));
  if (found.activation.live) return acceptDecisions(found, decisions);
  // a decision this run applied (or holds queued) is a duplicate, whatever became of the run
  const { applied, pending } = found.decisions;
  const known = new Set([...applied, ...pending.map((decision) => decision.decisionId)]);
  return found.run.status === 'done'
    ? rejectAll(decisions, 'run_finished', finished, known)
    : rejectAll(
        decisions,
        'not_live',
        `run ${parts.runId} has no live activation here; deliver decisions with runtime.resumeRun(runId, { decisions })`,
        known,
      );
}

/** Wraps the parts of a run as its public handle; rejections are observed so none goes unhandled. */
export function createRunHandle(parts: RunHandleParts): RunHandle {
  parts.result.catch(() => {});
  parts.receipts.catch(() => {});
  return {
    runId: parts.runId,
    get threadId() {
      return parts.threadId();
    },
    events: parts.channel,
    result: parts.result,
    receipts: parts.receipts,
    decide: (decisions) => decide(parts, decisionList(decisions)),
    cancel: parts.cancel,
    detach: parts.detach,
    [Symbol.asyncIterator]: () => parts.channel[Symbol.asyncIterator](),
  };
}
