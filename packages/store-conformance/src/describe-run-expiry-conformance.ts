import { trustedViewOf } from '@awaken/contract';
import { describeBothPaths } from './describe-both-paths';
import type { StoreHarness } from './harness';
import { inboxExpirySpec } from './run-expiry/inbox-expiry.spec';
import type { RunScopedStores } from './run-expiry/run-scoped-stores';

/**
 * Registers the tests of what expires with a finished run across stores (today: its decision inbox
 * with its event log), for an event log and an inbox on the same backend (e.g. `create*Stores`),
 * on the stores and again through their trusted views (see `describeBothPaths`).
 */
export function describeRunExpiryConformance(harness: StoreHarness<RunScopedStores>): void {
  const trustedViews = ({ eventLog, inbox }: RunScopedStores): RunScopedStores => ({
    eventLog: trustedViewOf(eventLog),
    inbox: trustedViewOf(inbox),
  });
  describeBothPaths(`run expiry conformance: ${harness.name}`, harness, trustedViews, (ctx) => {
    inboxExpirySpec(ctx);
  });
}
