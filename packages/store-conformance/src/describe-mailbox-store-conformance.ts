import type { MailboxStore } from '@awaken/contract';
import { describe } from 'vitest';
import type { StoreHarness } from './harness';
import { availableAtSpec } from './mailbox/available-at.spec';
import { badInputSpec } from './mailbox/bad-input.spec';
import { claimOnEnqueueSpec } from './mailbox/claim-on-enqueue.spec';
import { claimFieldsSpec } from './mailbox/claim-fields.spec';
import { claimOrderingSpec } from './mailbox/claim-ordering.spec';
import { concurrencySpec } from './mailbox/concurrency.spec';
import { dedupeSpec } from './mailbox/dedupe.spec';
import { enqueueSpec } from './mailbox/enqueue.spec';
import { fencingSpec } from './mailbox/fencing.spec';
import { interruptSpec } from './mailbox/interrupt.spec';
import { lifecycleSpec } from './mailbox/lifecycle.spec';
import { listSpec } from './mailbox/list.spec';
import { nackBackoffSpec } from './mailbox/nack-backoff.spec';
import { oneClaimPerThreadSpec } from './mailbox/one-claim-per-thread.spec';
import { purgeSpec } from './mailbox/purge.spec';
import { statusViewSpec } from './mailbox/status-view.spec';
import { reclaimSpec } from './mailbox/reclaim.spec';
import { runtimeProjectionSpec } from './mailbox/runtime-projection.spec';
import { terminalStatesSpec } from './mailbox/terminal-states.spec';
import { markRequeuedSpec } from './mailbox/mark-requeued.spec';
import { threadIdsSpec } from './mailbox/thread-ids.spec';
import { waitForWorkSpec } from './mailbox/wait-for-work.spec';
import { createSuiteContext } from './suite-context';

/**
 * Registers every MailboxStore conformance test for `harness`; call it from the backend's test file.
 * One pass only: the runtime calls its mailbox as given (`resolveStores` takes no trusted view of it)
 * and no backend offers one, so a pass through `trustedViewOf` would repeat the same calls.
 */
export function describeMailboxStoreConformance(harness: StoreHarness<MailboxStore>): void {
  describe(`MailboxStore conformance: ${harness.name}`, () => {
    const ctx = createSuiteContext(harness);
    enqueueSpec(ctx);
    dedupeSpec(ctx);
    claimOrderingSpec(ctx);
    availableAtSpec(ctx);
    oneClaimPerThreadSpec(ctx);
    lifecycleSpec(ctx);
    terminalStatesSpec(ctx);
    markRequeuedSpec(ctx);
    claimFieldsSpec(ctx);
    fencingSpec(ctx);
    interruptSpec(ctx);
    reclaimSpec(ctx);
    nackBackoffSpec(ctx);
    runtimeProjectionSpec(ctx);
    claimOnEnqueueSpec(ctx);
    listSpec(ctx);
    purgeSpec(ctx);
    statusViewSpec(ctx);
    concurrencySpec(ctx);
    waitForWorkSpec(ctx);
    threadIdsSpec(ctx);
    badInputSpec(ctx);
  });
}
