import { z } from 'zod';

/**
 * A conversation. `activeRunId` is the run currently executing, `openRunId` the waiting run a decision
 * or new input may resume, `latestRunId` the most recently created run. Stores maintain the pointers
 * when runs are created and checkpointed. `title` is the thread's first external user message,
 * shortened (see `threadTitleOf`), set by the store when that message is appended; absent until then.
 * `branchOf` is set on a branch (see `ThreadBranching`): the thread it was branched from and the `seq`
 * of the last message of that thread's log it shares (0: none); never changes.
 */
export const threadSchema = z.object({
  id: z.string().min(1),
  metadata: z.record(z.string(), z.unknown().optional()),
  activeRunId: z.string().optional(),
  openRunId: z.string().optional(),
  latestRunId: z.string().optional(),
  title: z.string().optional(),
  branchOf: z.object({ threadId: z.string().min(1), seq: z.number().int().nonnegative() }).optional(),
  createdAt: z.number().int().nonnegative(),
  updatedAt: z.number().int().nonnegative(),
});
export type Thread = z.infer<typeof threadSchema>;
