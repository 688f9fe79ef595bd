import { it } from 'vitest';
import type { SuiteContext } from '../suite-context';

/**
 * Registers a test of a caller's mistake (`validation_failed`, nothing written) on the pass that goes
 * through the store itself only. The other pass goes through `trustedViewOf(store)`, the path the
 * runtime takes with records, events and ids it built and checked itself: that path skips the input
 * checks by design (see `trustedStoreInputs` in the contract), so a mistake there is not caught and
 * no test may expect it to be.
 */
export function itChecksInput<T>(ctx: SuiteContext<T>, name: string, test: () => Promise<void>): void {
  if (!ctx.trusted) it(name, test);
}
