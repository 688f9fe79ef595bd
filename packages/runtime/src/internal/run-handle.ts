import type { AgentEvent, DecisionReceipt, ToolCallDecisionInput } from '@awaken/contract';
import type { RunHandle, RunResult } from '../types';
import type { EventChannel } from './event-channel';

export interface RunHandleParts {
  runId: string;
  /** Known at once for new runs; after loading for resumed ones. */
  threadId(): string;
  channel: EventChannel<AgentEvent>;
  result: Promise<RunResult>;
  receipts: Promise<DecisionReceipt[]>;
  decide(decisions: ToolCallDecisionInput[]): Promise<DecisionReceipt[]>;
  cancel(reason?: string): void;
  detach(reason?: string): void;
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
    decide: (decisions) => parts.decide(Array.isArray(decisions) ? decisions : [decisions]),
    cancel: parts.cancel,
    detach: parts.detach,
    [Symbol.asyncIterator]: () => parts.channel[Symbol.asyncIterator](),
  };
}
