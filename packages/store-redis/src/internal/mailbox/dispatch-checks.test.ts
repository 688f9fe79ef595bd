import { AwakenError, runDispatchSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { checkStoredDispatch } from './dispatch-checks';
import { uuidV7 } from '../keys/uuid-v7';

const BAD_VALUES: unknown[] = [
  undefined,
  null,
  '',
  'x',
  -1,
  0,
  1,
  1.5,
  255,
  256,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53,
  true,
  {},
  [],
];

/** zod's verdict: the parsed value, or 'rejected'. */
function zodOutcome(schema: typeof runDispatchSchema, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? result.data : 'rejected';
}

function checkOutcome(check: (value: never) => unknown, value: unknown) {
  try {
    return check(value as never);
  } catch (error) {
    if (AwakenError.isInstance(error) && error.code === 'validation_failed') return 'rejected';
    throw error;
  }
}

/** The valid record with each field in turn replaced by (or without) each odd value. */
function* variants(valid: Record<string, unknown>, extraFields: string[]) {
  yield valid;
  for (const field of [...Object.keys(valid), ...extraFields]) {
    for (const value of BAD_VALUES) {
      const copy: Record<string, unknown> = { ...valid, [field]: value };
      if (value === undefined) delete copy[field];
      yield copy;
    }
  }
}

describe('cheap dispatch checks', () => {
  const stored = {
    dispatchId: 'd1',
    threadId: 't1',
    runId: 'r1',
    priority: 128,
    dedupeKey: 'k',
    dispatchEpoch: 0,
    status: 'claimed',
    availableAt: 1_763_780_000_000,
    attemptCount: 1,
    maxAttempts: 3,
    claimToken: 'token',
    claimedBy: 'w1',
    leaseUntil: 1_763_780_030_000,
    runStatus: 'done',
    termination: { type: 'natural_end' },
    createdAt: 1_763_780_000_000,
    updatedAt: 1_763_780_000_001,
  };

  it('decides every stored record exactly as the contract schema does', () => {
    const { termination: _termination, ...plain } = stored;
    const extra = ['lastError', 'dispatchInstanceId', 'runResponse', 'runError', 'completedAt'];
    let cases = 0;
    for (const base of [stored, plain]) {
      for (const record of variants(base, extra)) {
        expect(checkOutcome(checkStoredDispatch, record)).toEqual(zodOutcome(runDispatchSchema, record));
        cases += 1;
      }
    }
    expect(cases).toBeGreaterThan(600);
  });
});

describe('uuidV7', () => {
  it('makes RFC 9562 version 7 ids that sort by their millisecond', () => {
    const ids = [uuidV7(1_000), uuidV7(1_001), uuidV7(1_763_780_000_000)];
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(ids[2]?.replaceAll('-', '').slice(0, 12)).toBe((1_763_780_000_000).toString(16).padStart(12, '0'));
    expect(uuidV7(5)).not.toBe(uuidV7(5));
  });
});
