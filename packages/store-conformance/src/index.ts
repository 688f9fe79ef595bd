export { describeThreadRunStoreConformance } from './describe-thread-run-store-conformance';
export { describeMailboxStoreConformance } from './describe-mailbox-store-conformance';
export { describeRunEventLogConformance } from './describe-run-event-log-conformance';
export { describeRunControlInboxConformance } from './describe-run-control-inbox-conformance';
export { describeRunExpiryConformance } from './describe-run-expiry-conformance';
export type { RunScopedStores } from './run-expiry/run-scoped-stores';
export { describeAcquireWithFenceConformance } from './describe-acquire-with-fence-conformance';
export type { LeaseAndLogStores } from './acquire-with-fence/acquire-with-fence.spec';
export { describeCheckpointWithEventsConformance } from './describe-checkpoint-with-events-conformance';
export type { JointStores } from './joint-write/joint-stores';
export { describeStoreDifferential } from './describe-store-differential';
export type {
  DifferentialHarness,
  DifferentialPair,
  DifferentialStores,
} from './differential/harness';
export { createManualClock } from './manual-clock';
export type { ManualClock } from './manual-clock';
export type {
  HarnessClock,
  HarnessPeers,
  StoreHarness,
} from './harness';
