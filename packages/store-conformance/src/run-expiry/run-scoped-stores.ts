import type { RunControlInbox, RunEventLog } from '@awaken/contract';

/** The stores that keep per-run data a finished run's expiry covers, sharing one backend. */
export interface RunScopedStores {
  eventLog: RunEventLog;
  inbox: RunControlInbox;
}
