import type { RunEventLog } from '@awaken/contract';
import { describe } from 'vitest';
import { appendReadSpec } from './event-log/append-read.spec';
import { eventLogBadInputSpec } from './event-log/bad-input.spec';
import { fenceSpec } from './event-log/fence.spec';
import { finishSpec } from './event-log/finish.spec';
import { runIdsSpec } from './event-log/run-ids.spec';
import { tailSpec } from './event-log/tail.spec';
import type { StoreHarness } from './harness';
import { createSuiteContext } from './suite-context';

/** Registers every RunEventLog conformance test for `harness`; call it from the backend's test file. */
export function describeRunEventLogConformance(harness: StoreHarness<RunEventLog>): void {
  describe(`RunEventLog conformance: ${harness.name}`, () => {
    const ctx = createSuiteContext(harness);
    appendReadSpec(ctx);
    tailSpec(ctx);
    finishSpec(ctx);
    runIdsSpec(ctx);
    fenceSpec(ctx);
    eventLogBadInputSpec(ctx);
  });
}
