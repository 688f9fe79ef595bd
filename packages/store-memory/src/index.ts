export { createMemoryThreadRunStore } from './create-memory-thread-run-store';
export { createMemoryMailboxStore } from './create-memory-mailbox-store';
export { createMemoryRunEventLog } from './create-memory-run-event-log';
export type { MemoryRunEventLogOptions } from './create-memory-run-event-log';
export { createMemoryDecisionInbox } from './create-memory-decision-inbox';
export type { MemoryDecisionInbox } from './create-memory-decision-inbox';
export { createMemoryStores } from './create-memory-stores';
export type { MemoryStores } from './create-memory-stores';
export type { MemoryStoreOptions } from './internal/clock';
