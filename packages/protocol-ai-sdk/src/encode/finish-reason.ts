import { type TerminationReason, assertNever } from '@awaken/contract';
import type { UiFinishReason } from '../wire/ui-message-chunk';

const MODEL_REASONS: ReadonlySet<string> = new Set(['stop', 'length', 'content-filter']);

/**
 * The v6 `finish.finishReason` of a turn that ended with `termination`. A waiting run reports
 * `tool-calls`, as `streamText` does when a step ends on approvals or client tools; a natural end
 * reports the last model call's reason when v6 knows it. Never a v7-only value: a cancelled run is
 * `other` (v7's `interrupted` makes a v6 client fail).
 */
export function finishReasonOf(termination: TerminationReason, lastModelReason?: string): UiFinishReason {
  switch (termination.type) {
    case 'suspended':
      return 'tool-calls';
    case 'natural_end':
      return lastModelReason !== undefined && MODEL_REASONS.has(lastModelReason)
        ? (lastModelReason as UiFinishReason)
        : 'stop';
    case 'behavior_requested':
      return 'stop';
    case 'stopped':
      return termination.code === 'token_budget' ? 'length' : 'other';
    case 'cancelled':
    case 'blocked':
      return 'other';
    case 'error':
      return 'error';
    default:
      return assertNever(termination);
  }
}
