import { z } from 'zod';
import { agentEventSchema } from '../../events/agent-event';
import {
  abortSignalSchema,
  jsonChecked,
  millisSchema,
  positiveIntegerSchema,
  storeIdSchema,
  ttlMsSchema,
  waitMsSchema,
} from './fields';
import { defineStoreInput } from './store-input';

const byRun = z.object({ runId: storeIdSchema });
/** A writer's run fence: 0 (never acquired, the default) or a lease's fence. */
const fence = millisSchema;

/** How long a finished run's event log (and its inbox) is kept when `finish` gets no `ttlMs`: one hour. */
export const DEFAULT_FINISHED_LOG_TTL_MS = 60 * 60 * 1000;

/** The input of every RunEventLog operation, as one object of its arguments by name. */
export const runEventLogInputs = {
  append: defineStoreInput(
    'append',
    jsonChecked(
      z.object({ runId: storeIdSchema, events: z.array(agentEventSchema), fence: fence.optional() }),
    ),
  ),
  read: defineStoreInput(
    'read',
    z.object({
      runId: storeIdSchema,
      afterSeq: millisSchema.optional(),
      limit: positiveIntegerSchema.optional(),
    }),
  ),
  tail: defineStoreInput(
    'tail',
    z.object({
      runId: storeIdSchema,
      afterSeq: millisSchema,
      waitMs: waitMsSchema,
      limit: positiveIntegerSchema.optional(),
      signal: abortSignalSchema.optional(),
    }),
  ),
  lastSeq: defineStoreInput('lastSeq', byRun),
  finish: defineStoreInput(
    'finish',
    z.object({ runId: storeIdSchema, ttlMs: ttlMsSchema.optional(), fence: fence.optional() }),
  ),
  isFinished: defineStoreInput('isFinished', byRun),
  raiseFence: defineStoreInput(
    'raiseFence',
    z.object({ runId: storeIdSchema, fence: positiveIntegerSchema }),
  ),
};
