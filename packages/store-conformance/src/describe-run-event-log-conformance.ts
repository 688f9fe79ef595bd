import { type RunEventLog, trustedViewOf } from '@awaken/contract';
import { describeBothPaths } from './describe-both-paths';
import { appendReadSpec } from './event-log/append-read.spec';
import { eventLogBadInputSpec } from './event-log/bad-input.spec';
import { fenceSpec } from './event-log/fence.spec';
import { finishSpec } from './event-log/finish.spec';
import { runIdsSpec } from './event-log/run-ids.spec';
import { tailSpec } from './event-log/tail.spec';
import type { StoreHarness } from './harness';

/**
 * Registers every RunEventLog conformance test for `harness`, on the log and again through its
 * trusted view (see `describeBothPaths`); call it from the backend's test file.
 */
export function describeRunEventLogConformance(harness: StoreHarness<RunEventLog>): void {
  describeBothPaths(`RunEventLog conformance: ${harness.name}`, harness, trustedViewOf, (ctx) => {
    appendReadSpec(ctx);
    tailSpec(ctx);
    finishSpec(ctx);
    runIdsSpec(ctx);
    fenceSpec(ctx);
    // Bad input is the validating path's job: the trusted view takes only what the runtime built and
    // checked, and skips the checks by design, so the bad-input specs run on the store itself only.
    if (!ctx.trusted) eventLogBadInputSpec(ctx);
  });
}
