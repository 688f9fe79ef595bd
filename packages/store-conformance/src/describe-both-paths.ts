import { describe } from 'vitest';
import type { StoreHarness } from './harness';
import { type SuiteContext, createSuiteContext } from './suite-context';

/**
 * Registers `specs` twice, as two sibling describe blocks: `title` reaches each store as its callers
 * do (every input parsed), `title, through trustedViewOf(store)` reaches it through `trustedView` —
 * the path the runtime takes (`resolveStores` calls `trustedViewOf` on the stores it is given), where
 * the runtime's own records, events and ids skip the parse. Both paths are one store and must behave
 * alike on good input; a backend that offers no trusted view runs the same calls twice.
 *
 * Specs of a caller's mistakes read `ctx.trusted` and register on the first pass only: the trusted
 * view does not check what it is given, by design (see `trustedStoreInputs` in the contract).
 */
export function describeBothPaths<T>(
  title: string,
  harness: StoreHarness<T>,
  trustedView: (store: T) => T,
  specs: (ctx: SuiteContext<T>) => void,
): void {
  describe(title, () => specs(createSuiteContext(harness)));
  describe(`${title}, through trustedViewOf(store)`, () => specs(createSuiteContext(harness, trustedView)));
}
