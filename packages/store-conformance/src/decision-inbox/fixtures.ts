import type { ToolCallDecision } from '@awaken/contract';
import { uniqueId } from '../internal/ids';

export function decision(toolCallId: string, overrides: Partial<ToolCallDecision> = {}): ToolCallDecision {
  return {
    decisionId: uniqueId('decision'),
    toolCallId,
    action: 'resume',
    result: { approved: true },
    updatedAt: 1_700_000_000_000,
    ...overrides,
  };
}
