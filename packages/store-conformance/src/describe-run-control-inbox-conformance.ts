import { type RunControlInbox, trustedViewOf } from '@awaken/contract';
import { describeBothPaths } from './describe-both-paths';
import type { StoreHarness } from './harness';
import { inboxBadInputSpec } from './run-control-inbox/bad-input.spec';
import { inboxConcurrencySpec } from './run-control-inbox/concurrency.spec';
import { putPeekRemoveSpec } from './run-control-inbox/put-peek-remove.spec';
import { subscribeSpec } from './run-control-inbox/subscribe.spec';

/**
 * Registers every RunControlInbox conformance test for `harness`, on the inbox and again through its
 * trusted view (see `describeBothPaths`); call it from the backend's test file.
 */
export function describeRunControlInboxConformance(harness: StoreHarness<RunControlInbox>): void {
  describeBothPaths(`RunControlInbox conformance: ${harness.name}`, harness, trustedViewOf, (ctx) => {
    putPeekRemoveSpec(ctx);
    inboxConcurrencySpec(ctx);
    subscribeSpec(ctx);
    // Bad input is the validating path's job: the trusted view takes only what the runtime built and
    // checked, and skips the checks by design, so the bad-input specs run on the store itself only.
    if (!ctx.trusted) inboxBadInputSpec(ctx);
  });
}
