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
  /** A fixed seed to replay a failure (printed when one is found). */
  seed?: number;
}
