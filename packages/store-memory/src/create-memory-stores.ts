import type { MailboxStore, RunControlInbox, RunEventLog, ThreadRunStore } from '@awaken/contract';
import { createMemoryMailboxStore } from './create-memory-mailbox-store';
import { type MemoryRunEventLogOptions, createMemoryRunEventLog } from './create-memory-run-event-log';
import { createMemoryRunControlInbox } from './create-memory-run-control-inbox';
import { createMemoryThreadRunStore } from './create-memory-thread-run-store';

/** The four Awaken stores, as a server or runtime takes them. */
export interface MemoryStores {
  threadRunStore: ThreadRunStore;
  mailboxStore: MailboxStore;
  runEventLog: RunEventLog;
  controlInbox: RunControlInbox;
}

/**
 * All four stores in process memory, sharing one clock: the embedded default. Nothing survives the
 * process and nothing is shared with another one.
 */
export function createMemoryStores(options: MemoryRunEventLogOptions = {}): MemoryStores {
  return {
    threadRunStore: createMemoryThreadRunStore(options),
    mailboxStore: createMemoryMailboxStore(options),
    runEventLog: createMemoryRunEventLog(options),
    controlInbox: createMemoryRunControlInbox(),
  };
}
