import { trustedViewOf } from '@awaken/contract';
import { type LeaseAndLogStores, acquireWithFenceSpec } from './acquire-with-fence/acquire-with-fence.spec';
import { describeBothPaths } from './describe-both-paths';
import type { StoreHarness } from './harness';

/**
 * Registers the tests of the joint acquisition (`AcquireWithFence`: a run's lease, its event log's
 * fence and its record in one call) for a thread-run store and an event log on the same backend,
 * on the stores and again through their trusted views (see `describeBothPaths`).
 */
export function describeAcquireWithFenceConformance(harness: StoreHarness<LeaseAndLogStores>): void {
  const trustedViews = ({ threadRuns, eventLog }: LeaseAndLogStores): LeaseAndLogStores => ({
    threadRuns: trustedViewOf(threadRuns),
    eventLog: trustedViewOf(eventLog),
  });
  describeBothPaths(`acquire with fence conformance: ${harness.name}`, harness, trustedViews, (ctx) => {
    acquireWithFenceSpec(ctx);
  });
}
