import { trustedViewOf } from '@awaken/contract';
import { describeBothPaths } from './describe-both-paths';
import type { StoreHarness } from './harness';
import { checkpointEndSpec } from './joint-write/checkpoint-end.spec';
import type { JointStores } from './joint-write/joint-stores';

/**
 * Registers the tests of the joint checkpoint write (`CheckpointWithEvents`) with the run's end
 * (`CheckpointEnd`), for a thread-run store and the event log it offers the joint write for (e.g.
 * `create*Stores`), on the stores and again through their trusted views (see `describeBothPaths`).
 */
export function describeCheckpointWithEventsConformance(harness: StoreHarness<JointStores>): void {
  const trustedViews = ({ threadRuns, eventLog }: JointStores): JointStores => ({
    threadRuns: trustedViewOf(threadRuns),
    eventLog: trustedViewOf(eventLog),
  });
  describeBothPaths(`checkpoint with events conformance: ${harness.name}`, harness, trustedViews, (ctx) => {
    checkpointEndSpec(ctx);
  });
}
