import type { ThreadRunStore } from '@awaken/contract';
import { describe } from 'vitest';
import type { StoreHarness } from './harness';
import { createSuiteContext } from './suite-context';
import { threadRunBadInputSpec } from './thread-run/bad-input.spec';
import { checkpointSpec } from './thread-run/checkpoint.spec';
import { jsonValuesSpec } from './thread-run/json-values.spec';
import { unicodeTextSpec } from './thread-run/unicode-text.spec';
import { largeBatchesSpec } from './thread-run/large-batches.spec';
import { messageLogSpec } from './thread-run/message-log.spec';
import { pointersSpec } from './thread-run/pointers.spec';
import { runLeaseSpec } from './thread-run/run-lease.spec';
import { runsSpec } from './thread-run/runs.spec';
import { runsByStatusSpec } from './thread-run/runs-by-status.spec';
import { threadIdsSpec } from './thread-run/thread-ids.spec';
import { threadsSpec } from './thread-run/threads.spec';

/** Registers every ThreadRunStore conformance test for `harness`; call it from the backend's test file. */
export function describeThreadRunStoreConformance(harness: StoreHarness<ThreadRunStore>): void {
  describe(`ThreadRunStore conformance: ${harness.name}`, () => {
    const ctx = createSuiteContext(harness);
    threadsSpec(ctx);
    messageLogSpec(ctx);
    runsSpec(ctx);
    runsByStatusSpec(ctx);
    checkpointSpec(ctx);
    pointersSpec(ctx);
    threadIdsSpec(ctx);
    runLeaseSpec(ctx);
    threadRunBadInputSpec(ctx);
    jsonValuesSpec(ctx);
    unicodeTextSpec(ctx);
    largeBatchesSpec(ctx);
  });
}
