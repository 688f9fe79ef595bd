export { describeMailboxStoreConformance } from './describe-mailbox-store-conformance';
export { createManualClock } from './manual-clock';
export type { ManualClock } from './manual-clock';
export type {
  HarnessClock,
  HarnessPeers,
  StoreCapabilities,
  StoreHarness,
  Unsupported,
} from './harness';
