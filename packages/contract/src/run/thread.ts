import { z } from 'zod';

/**
 * A conversation. `activeRunId` is the run currently executing, `openRunId` the waiting run a decision
 * or new input may resume, `latestRunId` the most recently created run. Stores maintain the pointers
 * when runs are created and checkpointed. `title` is the thread's first external user message,
 * shortened (see `threadTitleOf`), set by the store when that message is appended; absent until then.
 */
export const threadSchema = z.object({
  id: z.string().min(1),
  metadata: z.record(z.string(), z.unknown().optional()),
  activeRunId: z.string().optional(),
  openRunId: z.string().optional(),
  latestRunId: z.string().optional(),
  title: z.string().optional(),
  createdAt: z.number().int().nonnegative(),
  updatedAt: z.number().int().nonnegative(),
});
export type Thread = z.infer<typeof threadSchema>;
