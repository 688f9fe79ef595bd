import { describe, expect, it } from 'vitest';
import {
  type TerminationReason,
  terminationReasonSchema,
  terminationToRunStatus,
} from './termination-reason';

describe('TerminationReason', () => {
  const cases: Array<[TerminationReason, 'waiting' | 'done']> = [
    [{ type: 'natural_end' }, 'done'],
    [{ type: 'behavior_requested' }, 'done'],
    [{ type: 'stopped', code: 'max_rounds', detail: 'after 3 steps' }, 'done'],
    [{ type: 'cancelled' }, 'done'],
    [{ type: 'blocked', reason: 'denied by rule Bash' }, 'done'],
    [{ type: 'suspended' }, 'waiting'],
    [{ type: 'error', message: 'model failed' }, 'done'],
  ];

  it('has seven variants', () => {
    expect(terminationReasonSchema.options).toHaveLength(7);
  });

  for (const [reason, status] of cases) {
    it(`maps ${reason.type} to ${status}`, () => {
      expect(terminationToRunStatus(reason)).toBe(status);
      expect(terminationReasonSchema.parse(JSON.parse(JSON.stringify(reason)))).toEqual(reason);
    });
  }

  it('rejects a blocked reason without its reason text, naming the field', () => {
    const result = terminationReasonSchema.safeParse({ type: 'blocked' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['reason']);
  });
});
