import type { RunControlInbox } from '@awaken/contract';
import { describe } from 'vitest';
import type { StoreHarness } from './harness';
import { inboxBadInputSpec } from './run-control-inbox/bad-input.spec';
import { inboxConcurrencySpec } from './run-control-inbox/concurrency.spec';
import { putPeekRemoveSpec } from './run-control-inbox/put-peek-remove.spec';
import { subscribeSpec } from './run-control-inbox/subscribe.spec';
import { createSuiteContext } from './suite-context';

/** Registers every RunControlInbox conformance test for `harness`; call it from the backend's test file. */
export function describeRunControlInboxConformance(harness: StoreHarness<RunControlInbox>): void {
  describe(`RunControlInbox conformance: ${harness.name}`, () => {
    const ctx = createSuiteContext(harness);
    putPeekRemoveSpec(ctx);
    inboxConcurrencySpec(ctx);
    subscribeSpec(ctx);
    inboxBadInputSpec(ctx);
  });
}
