import { describe, expect, it } from 'vitest';
import { AwakenError } from '../../errors/awaken-error';
import { mailboxStoreInputs } from './mailbox-inputs';

const ODD_VALUES: unknown[] = [
  undefined,
  null,
  '',
  'x',
  '\uD800',
  -1,
  -0,
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

/** The valid input with each field in turn replaced by (or without) each odd value. */
function* variants(valid: Record<string, unknown>, extraFields: string[]) {
  yield valid;
  for (const field of [...Object.keys(valid), ...extraFields]) {
    for (const value of ODD_VALUES) {
      const copy: Record<string, unknown> = { ...valid, [field]: value };
      if (value === undefined) delete copy[field];
      yield copy;
    }
  }
  yield* [null, 'input', 42, []];
}

function outcome(parse: () => unknown) {
  try {
    return parse();
  } catch (error) {
    if (AwakenError.hasCode(error, 'validation_failed')) return 'rejected';
    throw error;
  }
}

const proof = { dispatchId: 'd1', claimToken: 'token' };
const cases: [keyof typeof mailboxStoreInputs, Record<string, unknown>, string[]][] = [
  [
    'enqueue',
    { threadId: 't1', runId: 'r1', dispatchId: 'd1', priority: 7, dedupeKey: 'k' },
    ['availableAt', 'maxAttempts'],
  ],
  ['claim', { workerId: 'w1', limit: 5, leaseMs: 30_000 }, []],
  ['claimDispatch', { dispatchId: 'd1', workerId: 'w1', leaseMs: 30_000 }, []],
  ['ack', proof, []],
  ['nack', { ...proof, error: 'boom', retryAt: 5 }, []],
  ['extendLease', { ...proof, leaseMs: 1_000 }, []],
  ['cancel', { dispatchId: 'd1' }, []],
  ['loadDispatch', { dispatchId: 'd1' }, []],
];

describe('mailbox input fast paths', () => {
  for (const [operation, valid, extra] of cases) {
    it(`${operation}: accepts and rejects exactly what the schema does, defaults included`, () => {
      const input = mailboxStoreInputs[operation];
      let count = 0;
      for (const candidate of variants(valid, extra)) {
        const viaSchema = input.schema.safeParse(candidate);
        expect(outcome(() => input.parse(candidate))).toEqual(
          viaSchema.success ? viaSchema.data : 'rejected',
        );
        count += 1;
      }
      expect(count).toBeGreaterThan(20);
    });
  }
});
