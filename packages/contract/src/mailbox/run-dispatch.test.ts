import { describe, expect, it } from 'vitest';
import {
  type RunDispatchStatus,
  canTransitionDispatch,
  isTerminalDispatchStatus,
  runDispatchStatusSchema,
  transitionDispatch,
} from './run-dispatch';

// Seed 002: queued -claim-> claimed -ack-> acked; claimed -nack(retry)-> queued; -> dead_letter;
// queued -cancel-> cancelled; interrupt (epoch bump) -> superseded (queued, or claimed via supersede_claimed).
const ALLOWED = new Set([
  'queued>claimed',
  'queued>cancelled',
  'queued>superseded',
  'claimed>acked',
  'claimed>queued',
  'claimed>dead_letter',
  'claimed>superseded',
]);
const ALL: RunDispatchStatus[] = runDispatchStatusSchema.options;

describe('RunDispatchStatus transitions', () => {
  for (const from of ALL) {
    for (const to of ALL) {
      const allowed = ALLOWED.has(`${from}>${to}`);
      it(`${allowed ? 'allows' : 'rejects'} ${from} -> ${to}`, () => {
        expect(canTransitionDispatch(from, to)).toBe(allowed);
        if (!allowed)
          expect(() => transitionDispatch(from, to)).toThrowError(/RunDispatchStatus: illegal transition/);
      });
    }
  }

  it('has four terminal statuses, acked among them', () => {
    expect(ALL.filter(isTerminalDispatchStatus)).toEqual(['acked', 'cancelled', 'superseded', 'dead_letter']);
  });
});
