import type { MailboxStore, RunControlInbox, RunEventLog, ThreadRunStore } from '@awaken/contract';

/** One backend's four stores, sharing one clock and one keyspace. */
export interface DifferentialStores {
  mailbox: MailboxStore;
  threadRuns: ThreadRunStore;
  eventLog: RunEventLog;
  inbox: RunControlInbox;
}

/** Two fresh backends fed the same operations. */
export interface DifferentialPair {
  /** The backend whose answers are the reference (e.g. memory). */
  reference: DifferentialStores;
  /** The backend compared with it (e.g. Redis). */
  subject: DifferentialStores;
  /** Sets both backends' store clock to `ms` (the shared manual clock). */
  setClock(ms: number): Promise<void>;
  /** Releases both backends (connections, keys). */
  destroy(): Promise<void>;
}

/** How a pair of backends plugs into the differential test. */
export interface DifferentialHarness {
  name: string;
  /** Two fresh, empty backends whose clocks both read `start`. */
  createPair(start: number): Promise<DifferentialPair>;
  /** How long fast-check may generate sequences (milliseconds). */
  budgetMs: number;
  /**
   * Whether the subject applies mailbox calls started in one tick in call order (default true). A
   * sharded mailbox (Redis Cluster) does not: a call may read before it writes (which shard, which
   * heads), so calls not awaited take effect in any order, as calls of separate clients would; for it
   * no step starts several calls at once.
   */
  callsInCallOrder?: boolean;
  /** A fixed seed to replay a failure (printed when one is found). */
  seed?: number;
}
