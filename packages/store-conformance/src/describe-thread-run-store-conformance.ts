import { type ThreadRunStore, trustedViewOf } from '@awaken/contract';
import { describeBothPaths } from './describe-both-paths';
import type { StoreHarness } from './harness';
import { threadRunBadInputSpec } from './thread-run/bad-input.spec';
import { branchesSpec } from './thread-run/branches.spec';
import { checkpointSpec } from './thread-run/checkpoint.spec';
import { createRunWithLeaseSpec } from './thread-run/create-run-with-lease.spec';
import { jsonValuesSpec } from './thread-run/json-values.spec';
import { unicodeTextSpec } from './thread-run/unicode-text.spec';
import { largeBatchesSpec } from './thread-run/large-batches.spec';
import { messageLogSpec } from './thread-run/message-log.spec';
import { pointersSpec } from './thread-run/pointers.spec';
import { runLeaseSpec } from './thread-run/run-lease.spec';
import { runsSpec } from './thread-run/runs.spec';
import { runsByStatusSpec } from './thread-run/runs-by-status.spec';
import { allRunsSpec } from './thread-run/all-runs.spec';
import { threadIdsSpec } from './thread-run/thread-ids.spec';
import { threadListSpec } from './thread-run/thread-list.spec';
import { threadsSpec } from './thread-run/threads.spec';

/**
 * Registers every ThreadRunStore conformance test for `harness`, on the store and again through its
 * trusted view (see `describeBothPaths`); call it from the backend's test file.
 */
export function describeThreadRunStoreConformance(harness: StoreHarness<ThreadRunStore>): void {
  describeBothPaths(`ThreadRunStore conformance: ${harness.name}`, harness, trustedViewOf, (ctx) => {
    threadsSpec(ctx);
    threadListSpec(ctx);
    messageLogSpec(ctx);
    runsSpec(ctx);
    runsByStatusSpec(ctx);
    allRunsSpec(ctx);
    checkpointSpec(ctx);
    pointersSpec(ctx);
    threadIdsSpec(ctx);
    runLeaseSpec(ctx);
    createRunWithLeaseSpec(ctx);
    branchesSpec(ctx);
    // Bad input is the validating path's job: the trusted view takes only what the runtime built and
    // checked, and skips the checks by design, so the bad-input specs run on the store itself only.
    if (!ctx.trusted) threadRunBadInputSpec(ctx);
    jsonValuesSpec(ctx);
    unicodeTextSpec(ctx);
    largeBatchesSpec(ctx);
  });
}
