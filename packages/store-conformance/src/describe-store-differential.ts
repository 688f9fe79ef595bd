import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BackendEnv } from './differential/backend-env';
import { outcomeOfStep } from './differential/concurrent-operations';
import type { DifferentialHarness } from './differential/harness';
import type { Operation } from './differential/operation';
import { type Outcome, isCrash, outcomeOf } from './differential/outcome';
import { operationSequenceOf } from './differential/sequence';
import { snapshot } from './differential/snapshot';

const START = Date.UTC(2025, 0, 1);

function expectSame(step: string, reference: Outcome, subject: Outcome): void {
  for (const [side, outcome] of [
    ['reference', reference],
    ['subject', subject],
  ] as const) {
    if (isCrash(outcome)) throw new Error(`${step}: the ${side} failed unexpectedly: ${outcome.crash}`);
  }
  expect(subject, step).toEqual(reference);
}

/**
 * Registers the differential test: fast-check generates random sequences of store operations (see
 * `operationSequence`), applies each to two fresh backends sharing a manual clock, and requires the
 * same result (generated ids and tokens compared by order of appearance) or the same error code for
 * every operation, and the same data afterwards. A `store_failure`, an `internal` error or a
 * non-Awaken error on either side fails at once. Runs for `harness.budgetMs`, then reports how many
 * sequences it checked.
 */
export function describeStoreDifferential(harness: DifferentialHarness): void {
  describe(`store differential: ${harness.name}`, () => {
    it(
      `answers every operation of random sequences alike (${harness.budgetMs} ms budget)`,
      async () => {
        let sequences = 0;
        let operations = 0;
        /** Outcomes by operation (`claim ok`, `ack stale_claim`, ...): what the sequences exercised. */
        const tally = new Map<string, number>();
        const started = Date.now();
        const generated = operationSequenceOf({ concurrent: harness.callsInCallOrder ?? true });
        const property = fc.asyncProperty(generated, async (steps: Operation[]) => {
          sequences += 1;
          const pair = await harness.createPair(START);
          const reference = new BackendEnv();
          const subject = new BackendEnv();
          let now = START;
          reference.now = now;
          subject.now = now;
          try {
            for (const [index, step] of steps.entries()) {
              if (step.advanceMs !== undefined) {
                now += step.advanceMs;
                await pair.setClock(now);
                reference.now = now;
                subject.now = now;
                continue;
              }
              const expected = await outcomeOfStep(step, pair.reference, reference);
              const actual = await outcomeOfStep(step, pair.subject, subject);
              operations += 1;
              expectSame(`step ${index}: ${step.description}`, expected, actual);
              const key = `${step.description.split('(')[0]} ${'ok' in expected ? 'ok' : 'error' in expected ? expected.error : 'crash'}`;
              tally.set(key, (tally.get(key) ?? 0) + 1);
            }
            const expected = await outcomeOf(() => snapshot(pair.reference, reference), reference);
            const actual = await outcomeOf(() => snapshot(pair.subject, subject), subject);
            expectSame('final state', expected, actual);
          } finally {
            await pair.destroy();
          }
        });
        await fc.assert(property, {
          interruptAfterTimeLimit: harness.budgetMs,
          numRuns: Number.MAX_SAFE_INTEGER,
          ...(harness.seed === undefined ? {} : { seed: harness.seed }),
        });
        const seconds = ((Date.now() - started) / 1000).toFixed(0);
        const outcomes = [...tally].sort(([a], [b]) => a.localeCompare(b)).map(([key, n]) => `${key}: ${n}`);
        console.info(
          `store differential ${harness.name}: ${sequences} sequences, ${operations} operations, no divergence (${seconds} s)\n  ${outcomes.join('\n  ')}`,
        );
        expect(sequences).toBeGreaterThan(0);
      },
      harness.budgetMs + 300_000,
    );
  });
}
