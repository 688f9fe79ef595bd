import type { AwakenStores } from '@awaken/contract';
import { createMemoryMailboxStore } from './create-memory-mailbox-store';
import { type MemoryRunEventLogOptions, createMemoryRunEventLog } from './create-memory-run-event-log';
import { createExpiringRunControlInbox } from './create-memory-run-control-inbox';
import {
  type MemoryThreadRunStoreOptions,
  createMemoryThreadRunStore,
} from './create-memory-thread-run-store';

/** The four Awaken stores in the contract's bundle shape, as `createAgentRuntime` and the server take them. */
export type MemoryStores = AwakenStores;

/**
 * All four stores in process memory, sharing one clock: the embedded default. A finished run's
 * control inbox is dropped with its event log (`finish`'s `ttlMs`). Nothing survives the process and
 * nothing is shared with another one.
 */
export function createMemoryStores(
  options: MemoryRunEventLogOptions & MemoryThreadRunStoreOptions = {},
): MemoryStores {
  const controlInbox = createExpiringRunControlInbox(options);
  const onFinish = (runId: string, expiresAt: number) => {
    controlInbox.expireRun(runId, expiresAt);
    options.onFinish?.(runId, expiresAt);
  };
  return {
    threadRuns: createMemoryThreadRunStore(options),
    mailbox: createMemoryMailboxStore(options),
    eventLog: createMemoryRunEventLog({ ...options, onFinish }),
    inbox: controlInbox,
  };
}
