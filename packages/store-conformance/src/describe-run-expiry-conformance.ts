import { describe } from 'vitest';
import type { StoreHarness } from './harness';
import { inboxExpirySpec } from './run-expiry/inbox-expiry.spec';
import type { RunScopedStores } from './run-expiry/run-scoped-stores';
import { createSuiteContext } from './suite-context';

/**
 * Registers the tests of what expires with a finished run across stores (today: its decision inbox
 * with its event log), for an event log and an inbox on the same backend (e.g. `create*Stores`).
 */
export function describeRunExpiryConformance(harness: StoreHarness<RunScopedStores>): void {
  describe(`run expiry conformance: ${harness.name}`, () => {
    const ctx = createSuiteContext(harness);
    inboxExpirySpec(ctx);
  });
}
