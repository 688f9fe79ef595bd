import {
  type RunControl,
  type ToolCallDecision,
  type ToolCallDecisionInput,
  decisionControl,
} from '@awaken/contract';
import { uniqueId } from '../internal/ids';

/** An approving decision for the suspended call `target` names: its tool call, its ticket or both. */
function resumeDecision(
  target: Pick<ToolCallDecisionInput, 'toolCallId' | 'ticketId'>,
  overrides: Partial<ToolCallDecisionInput>,
): RunControl {
  return decisionControl({
    decisionId: uniqueId('decision'),
    ...target,
    action: 'resume',
    result: { approved: true },
    updatedAt: 1_700_000_000_000,
    ...overrides,
  });
}

export function decision(toolCallId: string, overrides: Partial<ToolCallDecision> = {}): RunControl {
  return resumeDecision({ toolCallId }, overrides);
}

/** A decision naming only its ticket, as a protocol client sends it (an approval or interrupt id). */
export function ticketDecision(ticketId: string, overrides: Partial<ToolCallDecisionInput> = {}): RunControl {
  return resumeDecision({ ticketId }, overrides);
}

export function cancel(reason = 'stop'): RunControl {
  return { kind: 'cancel', id: uniqueId('cancel'), reason, at: 1_700_000_000_000 };
}

export function input(content: string): RunControl {
  return {
    kind: 'input',
    id: uniqueId('input'),
    messages: [{ role: 'user', content }],
    at: 1_700_000_000_000,
  };
}

export const ids = (controls: readonly RunControl[]): string[] => controls.map((control) => control.id);
