import { z } from 'zod';
import { runControlSchema } from '../run-control-inbox';
import { isWellFormedText, jsonChecked, storeIdSchema } from './fields';
import { defineStoreInput } from './store-input';

const byRun = z.object({ runId: storeIdSchema });
const WELL_FORMED = 'must be well-formed Unicode (no lone surrogate)';

/** A run control as an inbox keeps it: its ids (and a decision's tool call and ticket ids) are store ids. */
const storedControlSchema = runControlSchema.superRefine((control, context) => {
  if (!isWellFormedText(control.id)) context.addIssue({ code: 'custom', path: ['id'], message: WELL_FORMED });
  if (control.kind !== 'decision') return;
  for (const field of ['toolCallId', 'ticketId'] as const) {
    const value = control.decision[field];
    if (value !== undefined && !isWellFormedText(value)) {
      context.addIssue({ code: 'custom', path: ['decision', field], message: WELL_FORMED });
    }
  }
});

/** The input of every RunControlInbox operation, as one object of its arguments by name. */
export const runControlInboxInputs = {
  put: defineStoreInput('put', jsonChecked(z.object({ runId: storeIdSchema, control: storedControlSchema }))),
  peek: defineStoreInput('peek', byRun),
  remove: defineStoreInput('remove', z.object({ runId: storeIdSchema, ids: z.array(storeIdSchema) })),
  subscribe: defineStoreInput(
    'subscribe',
    z.object({
      runId: storeIdSchema,
      listener: z.custom<() => void>((value) => typeof value === 'function', 'must be a function'),
    }),
  ),
};
