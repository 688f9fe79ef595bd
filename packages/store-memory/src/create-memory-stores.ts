import type { AwakenStores } from '@awaken/contract';
import { createMemoryMailboxStore } from './create-memory-mailbox-store';
import { type MemoryRunEventLogOptions, createMemoryRunEventLog } from './create-memory-run-event-log';
import { createMemoryRunControlInbox } from './create-memory-run-control-inbox';
import { createMemoryThreadRunStore } from './create-memory-thread-run-store';

/** The four Awaken stores in the contract's bundle shape, as `createAgentRuntime` and the server take them. */
export type MemoryStores = AwakenStores;

/**
 * All four stores in process memory, sharing one clock: the embedded default. Nothing survives the
 * process and nothing is shared with another one.
 */
export function createMemoryStores(options: MemoryRunEventLogOptions = {}): MemoryStores {
  return {
    threadRuns: createMemoryThreadRunStore(options),
    mailbox: createMemoryMailboxStore(options),
    eventLog: createMemoryRunEventLog(options),
    inbox: createMemoryRunControlInbox(),
  };
}
