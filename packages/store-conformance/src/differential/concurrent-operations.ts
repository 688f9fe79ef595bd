import fc from 'fast-check';
import type { BackendEnv } from './backend-env';
import type { DifferentialStores } from './harness';
import { mailboxOperation } from './mailbox-operations';
import type { Operation } from './operation';
import { type Outcome, isCrash, outcomeOf } from './outcome';

/** An operation that starts several mailbox operations at once and awaits them together. */
export interface ConcurrentOperation extends Operation {
  readonly together: readonly Operation[];
}

function isConcurrent(step: Operation): step is ConcurrentOperation {
  return 'together' in step;
}

/**
 * 2 to 6 mailbox operations started in the same tick (`Promise.all`), as concurrent callers of one
 * store make them: a backend that batches the calls of a tick must still apply them in call order
 * and answer each on its own, so both backends answer each alike. Listings are left out: a page
 * is read in two round trips (ids, then records), so a listing started with a write may show it.
 */
export const concurrentMailboxOperations: fc.Arbitrary<Operation> = fc
  .array(
    // listings read several keys one after another: concurrent writes may land between the reads
    mailboxOperation.filter(
      (step) =>
        !step.description.startsWith('listDispatches') && !step.description.startsWith('countDispatches'),
    ),
    { minLength: 2, maxLength: 6 },
  )
  .map((together) => {
    const description = `together[${together.map((step) => step.description).join(', ')}]`;
    return {
      description,
      together,
      run: async () => undefined,
      [fc.toStringMethod]: () => description,
    } as ConcurrentOperation;
  });

/**
 * The outcome of a step. For a concurrent one: every operation is started before any is awaited
 * (each resolves its references against what was learned before the group), then the results are
 * learned in call order, so ids and tokens get the same aliases whichever call settled first; any
 * crash is the group's outcome.
 */
export async function outcomeOfStep(
  step: Operation,
  stores: DifferentialStores,
  env: BackendEnv,
): Promise<Outcome> {
  if (!isConcurrent(step)) return outcomeOf(() => step.run(stores, env), env);
  const started = step.together.map((member) => {
    try {
      return member.run(stores, env);
    } catch (error) {
      return Promise.reject(error);
    }
  });
  const settled = await Promise.allSettled(started);
  const outcomes: Outcome[] = [];
  for (const result of settled) {
    outcomes.push(
      await outcomeOf(
        () => (result.status === 'fulfilled' ? Promise.resolve(result.value) : Promise.reject(result.reason)),
        env,
      ),
    );
  }
  return outcomes.find(isCrash) ?? { ok: outcomes };
}
