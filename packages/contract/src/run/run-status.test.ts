import { describe, expect, it } from 'vitest';
import { AwakenError } from '../errors/awaken-error';
import { type RunStatus, canTransitionRunStatus, runStatusSchema, transitionRunStatus } from './run-status';

// Seed 003: Created -> Running | Done; Running -> Waiting | Done; Waiting -> Running | Done; Done is terminal
// (accepting only itself as an idempotent finish). Running and Waiting accept themselves: a run
// checkpoints many times without changing status.
const ALLOWED = new Set([
  'created>running',
  'created>done',
  'running>running',
  'running>waiting',
  'running>done',
  'waiting>waiting',
  'waiting>running',
  'waiting>done',
  'done>done',
]);
const ALL: RunStatus[] = runStatusSchema.options;

describe('RunStatus transitions', () => {
  for (const from of ALL) {
    for (const to of ALL) {
      const allowed = ALLOWED.has(`${from}>${to}`);
      it(`${allowed ? 'allows' : 'rejects'} ${from} -> ${to}`, () => {
        expect(canTransitionRunStatus(from, to)).toBe(allowed);
        if (allowed) expect(transitionRunStatus(from, to)).toBe(to);
        else expect(() => transitionRunStatus(from, to)).toThrowError(AwakenError);
      });
    }
  }

  it('throws a typed invalid_transition error naming both states', () => {
    try {
      transitionRunStatus('done', 'running');
      expect.unreachable();
    } catch (error) {
      expect(AwakenError.hasCode(error, 'invalid_transition')).toBe(true);
      expect((error as AwakenError).message).toContain('done -> running');
      expect((error as AwakenError).details).toEqual({ machine: 'RunStatus', from: 'done', to: 'running' });
    }
  });
});
