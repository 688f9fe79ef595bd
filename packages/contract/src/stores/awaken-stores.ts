import type { MailboxStore } from './mailbox-store';
import type { RunControlInbox } from './run-control-inbox';
import type { RunEventLog } from './run-event-log';
import type { ThreadRunStore } from './thread-run-store';

/**
 * The stores of one Awaken deployment, in the one shape every backend's factory returns
 * (`createMemoryStores()`, `createRedisStores(...)`) and that `createAgentRuntime({ stores })` and the
 * server take as is. The stores of one bundle share a backend (and its clock).
 */
export interface AwakenStores {
  /** Threads, message logs, run records and checkpoints. */
  threadRuns: ThreadRunStore;
  /** The durable run queue (dispatches, leases, retries). */
  mailbox: MailboxStore;
  /** Every `AgentEvent` of a run, appended before it is sent, readable from any seq. */
  eventLog: RunEventLog;
  /** Commands for a run (decisions, cancel, user input), durable and idempotent by id. */
  inbox: RunControlInbox;
}
