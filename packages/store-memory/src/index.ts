export { createMemoryThreadRunStore } from './create-memory-thread-run-store';
export type { MemoryThreadRunStoreOptions } from './create-memory-thread-run-store';
export { createMemoryMailboxStore } from './create-memory-mailbox-store';
export { createMemoryRunEventLog } from './create-memory-run-event-log';
export type { MemoryRunEventLogOptions } from './create-memory-run-event-log';
export { createMemoryRunControlInbox } from './create-memory-run-control-inbox';
export { createMemoryStores } from './create-memory-stores';
export type { MemoryStores } from './create-memory-stores';
export type { MemoryStoreOptions } from './internal/clock';
