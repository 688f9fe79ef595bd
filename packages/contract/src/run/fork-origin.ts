import { z } from 'zod';

/**
 * A call of the source run, at or after the fork point, to a tool that must never run twice
 * (`idempotent: false`) which ran there (its result is `succeeded` or `failed`): the fork asks before
 * running that tool again (see `FORK_REPEAT_ACTION`).
 */
export const forkRepeatSchema = z.object({
  toolCallId: z.string().min(1),
  toolName: z.string().min(1),
  step: z.number().int().positive(),
  arguments: z.unknown().optional(),
  outcome: z.enum(['succeeded', 'failed']),
  /** The result the source run recorded (the tool message's content). */
  result: z.unknown().optional(),
});
export type ForkRepeat = z.infer<typeof forkRepeatSchema>;

/**
 * Where a forked run comes from (`RunRecord.forkOf`): the source run and the step it was forked at.
 * The fork runs on a branch of the source's thread whose history is the source thread up to
 * `atSeq` — everything the source run had when step `step` began: its input and the model turns and
 * tool results of the steps before, reused as recorded — and calls the model for step `step` afresh.
 * `instructions`, when set, replace the agent's system prompt for the fork. `repeats` are the
 * non-idempotent calls the source made from `step` on: the fork never runs one of those tools again
 * without a human's answer.
 */
export const forkOriginSchema = z.object({
  runId: z.string().min(1),
  threadId: z.string().min(1),
  step: z.number().int().positive(),
  atSeq: z.number().int().nonnegative(),
  instructions: z.string().optional(),
  repeats: z.array(forkRepeatSchema),
});
export type ForkOrigin = z.infer<typeof forkOriginSchema>;
