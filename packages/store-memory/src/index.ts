export { createMemoryThreadRunStore } from './create-memory-thread-run-store';
export type { MemoryStoreOptions } from './internal/clock';
