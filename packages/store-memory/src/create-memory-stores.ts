import type { MailboxStore, RunControlInbox, RunEventLog, ThreadRunStore } from '@awaken/contract';
import { createMemoryMailboxStore } from './create-memory-mailbox-store';
import { type MemoryRunEventLogOptions, createMemoryRunEventLog } from './create-memory-run-event-log';
import { createExpiringRunControlInbox } from './create-memory-run-control-inbox';
import { createMemoryThreadRunStore } from './create-memory-thread-run-store';

/** The four Awaken stores, as a server or runtime takes them. */
export interface MemoryStores {
  threadRunStore: ThreadRunStore;
  mailboxStore: MailboxStore;
  runEventLog: RunEventLog;
  controlInbox: RunControlInbox;
}

/**
 * All four stores in process memory, sharing one clock: the embedded default. A finished run's
 * control inbox is dropped with its event log (`finish`'s `ttlMs`). Nothing survives the process and
 * nothing is shared with another one.
 */
export function createMemoryStores(options: MemoryRunEventLogOptions = {}): MemoryStores {
  const controlInbox = createExpiringRunControlInbox(options);
  const onFinish = (runId: string, expiresAt: number) => {
    controlInbox.expireRun(runId, expiresAt);
    options.onFinish?.(runId, expiresAt);
  };
  return {
    threadRunStore: createMemoryThreadRunStore(options),
    mailboxStore: createMemoryMailboxStore(options),
    runEventLog: createMemoryRunEventLog({ ...options, onFinish }),
    controlInbox,
  };
}
