import type { DecisionInbox } from '@awaken/contract';
import { describe } from 'vitest';
import { inboxBadInputSpec } from './decision-inbox/bad-input.spec';
import { inboxConcurrencySpec } from './decision-inbox/concurrency.spec';
import { putDrainSpec } from './decision-inbox/put-drain.spec';
import { subscribeSpec } from './decision-inbox/subscribe.spec';
import type { StoreHarness } from './harness';
import { createSuiteContext } from './suite-context';

/** Registers every DecisionInbox conformance test for `harness`; call it from the backend's test file. */
export function describeDecisionInboxConformance(harness: StoreHarness<DecisionInbox>): void {
  describe(`DecisionInbox conformance: ${harness.name}`, () => {
    const ctx = createSuiteContext(harness);
    putDrainSpec(ctx);
    inboxConcurrencySpec(ctx);
    subscribeSpec(ctx);
    inboxBadInputSpec(ctx);
  });
}
