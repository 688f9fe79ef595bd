import { z } from 'zod';
import { toolCallDecisionSchema } from '../../hitl/decision';
import { jsonChecked, storeIdSchema } from './fields';
import { defineStoreInput } from './store-input';

const byRun = z.object({ runId: storeIdSchema });

/** A decision as an inbox keeps it: its ids are store ids, its `result` JSON. */
const storedDecisionSchema = toolCallDecisionSchema.extend({
  decisionId: storeIdSchema,
  toolCallId: storeIdSchema,
});

/** The input of every DecisionInbox operation, as one object of its arguments by name. */
export const decisionInboxInputs = {
  put: defineStoreInput(
    'put',
    jsonChecked(z.object({ runId: storeIdSchema, decision: storedDecisionSchema })),
  ),
  drain: defineStoreInput('drain', byRun),
  peek: defineStoreInput('peek', byRun),
  subscribe: defineStoreInput(
    'subscribe',
    z.object({
      runId: storeIdSchema,
      listener: z.custom<() => void>((value) => typeof value === 'function', 'must be a function'),
    }),
  ),
};
