import { describe, expect, it } from 'vitest';
import { AwakenError } from '../errors/awaken-error';
import {
  type ToolCallStatus,
  canTransitionToolCall,
  isTerminalToolCallStatus,
  toolCallStatusSchema,
  transitionToolCall,
} from './tool-call-status';

// Seed 001 layer 2, written out independently of the implementation's table, plus `expired` (a
// suspension nobody answered in time: terminal, reached only from `suspended`).
const ALLOWED = new Set([
  'new>running',
  'new>suspended',
  'running>suspended',
  'running>succeeded',
  'running>failed',
  'running>cancelled',
  'suspended>resuming',
  'suspended>cancelled',
  'suspended>expired',
  'resuming>running',
  'resuming>suspended',
  'resuming>succeeded',
  'resuming>failed',
  'resuming>cancelled',
  'succeeded>succeeded',
  'failed>failed',
  'cancelled>cancelled',
  'expired>expired',
]);
const ALL: ToolCallStatus[] = toolCallStatusSchema.options;

describe('ToolCallStatus transitions', () => {
  it('has the seven states of seed 001 and expired', () => {
    expect(ALL).toEqual([
      'new',
      'running',
      'suspended',
      'resuming',
      'succeeded',
      'failed',
      'cancelled',
      'expired',
    ]);
  });

  for (const from of ALL) {
    for (const to of ALL) {
      const allowed = ALLOWED.has(`${from}>${to}`);
      it(`${allowed ? 'allows' : 'rejects'} ${from} -> ${to}`, () => {
        expect(canTransitionToolCall(from, to)).toBe(allowed);
        if (allowed) expect(transitionToolCall(from, to)).toBe(to);
        else expect(() => transitionToolCall(from, to)).toThrowError(/illegal transition/);
      });
    }
  }

  it('lets a suspended call move only to resuming, cancelled or expired', () => {
    const targets = ALL.filter((to) => canTransitionToolCall('suspended', to));
    expect(targets).toEqual(['resuming', 'cancelled', 'expired']);
  });

  it('marks exactly succeeded, failed, cancelled and expired as terminal', () => {
    expect(ALL.filter(isTerminalToolCallStatus)).toEqual(['succeeded', 'failed', 'cancelled', 'expired']);
  });

  it('raises an AwakenError with code invalid_transition', () => {
    expect(() => transitionToolCall('succeeded', 'running')).toThrowError(
      expect.objectContaining({ code: 'invalid_transition' }) as unknown as Error,
    );
    let caught: unknown;
    try {
      transitionToolCall('suspended', 'running');
    } catch (error) {
      caught = error;
    }
    expect(AwakenError.isInstance(caught)).toBe(true);
  });
});
