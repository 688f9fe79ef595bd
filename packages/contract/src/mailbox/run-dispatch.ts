import { z } from 'zod';
import { runStatusSchema } from '../run/run-status';
import { terminationReasonSchema } from '../run/termination-reason';
import { type TransitionTable, canTransition, transitionIn } from '../state/transition-table';
import {
  millisSchema,
  positiveIntegerSchema,
  storeIdSchema,
  withoutNegativeZero,
} from '../stores/inputs/fields';

/**
 * Queue status of one delivery attempt. `acked` means "consumed, do not retry" — never
 * "succeeded": read the RunRecord for the business outcome.
 */
export const runDispatchStatusSchema = z.enum([
  'queued',
  'claimed',
  'acked',
  'cancelled',
  'superseded',
  'dead_letter',
]);
export type RunDispatchStatus = z.infer<typeof runDispatchStatusSchema>;

/** Allowed dispatch moves: claim, ack, nack (back to queued), dead letter, cancel, supersede. */
export const RUN_DISPATCH_STATUS_TRANSITIONS: TransitionTable<RunDispatchStatus> = {
  queued: ['claimed', 'cancelled', 'superseded'],
  claimed: ['acked', 'queued', 'dead_letter', 'superseded'],
  acked: [],
  cancelled: [],
  superseded: [],
  dead_letter: [],
};

export const TERMINAL_DISPATCH_STATUSES: readonly RunDispatchStatus[] = [
  'acked',
  'cancelled',
  'superseded',
  'dead_letter',
];

export function isTerminalDispatchStatus(status: RunDispatchStatus): boolean {
  return TERMINAL_DISPATCH_STATUSES.includes(status);
}

export function canTransitionDispatch(from: RunDispatchStatus, to: RunDispatchStatus): boolean {
  return canTransition(RUN_DISPATCH_STATUS_TRANSITIONS, from, to);
}

/** Returns `to`, or throws `AwakenError('invalid_transition')`. */
export function transitionDispatch(from: RunDispatchStatus, to: RunDispatchStatus): RunDispatchStatus {
  return transitionIn('RunDispatchStatus', RUN_DISPATCH_STATUS_TRANSITIONS, from, to);
}

const millis = z.number().int().nonnegative();

/**
 * One queue delivery attempt for a run (`RunDispatch`). Holds delivery, lease, retry and a
 * compact runtime projection; never the request messages (those live on the RunRecord and thread).
 */
export const runDispatchSchema = z.object({
  dispatchId: z.string().min(1),
  threadId: z.string().min(1),
  runId: z.string().min(1),
  /** 0 = highest, 255 = lowest; default 128. */
  priority: z.number().int().min(0).max(255),
  dedupeKey: z.string().optional(),
  dispatchEpoch: z.number().int().nonnegative(),
  status: runDispatchStatusSchema,
  availableAt: millis,
  attemptCount: z.number().int().nonnegative(),
  maxAttempts: z.number().int().positive(),
  lastError: z.string().optional(),
  claimToken: z.string().optional(),
  claimedBy: z.string().optional(),
  leaseUntil: millis.optional(),
  dispatchInstanceId: z.string().optional(),
  runStatus: runStatusSchema.optional(),
  termination: terminationReasonSchema.optional(),
  runResponse: z.string().optional(),
  runError: z.string().optional(),
  completedAt: millis.optional(),
  /**
   * A dead letter's requeue (`markRequeued`): the run and dispatch it was requeued as. Set once, so
   * any number of requeues of one dead letter make one new run.
   */
  requeuedRunId: z.string().min(1).optional(),
  requeuedDispatchId: z.string().min(1).optional(),
  createdAt: millis,
  updatedAt: millis,
});
export type RunDispatch = z.infer<typeof runDispatchSchema>;

/** The compact runtime result recorded on a dispatch, apart from its ack. */
export const runDispatchResultSchema = z.object({
  runId: z.string().min(1),
  dispatchInstanceId: z.string().min(1),
  status: runStatusSchema,
  termination: terminationReasonSchema.optional(),
  response: z.string().optional(),
  error: z.string().optional(),
});
export type RunDispatchResult = z.infer<typeof runDispatchResultSchema>;

/** What `MailboxStore.interrupt` returns: the new epoch, the claim to cancel, how many were superseded. */
export const mailboxInterruptSchema = z.object({
  newDispatchEpoch: z.number().int().nonnegative(),
  activeDispatch: runDispatchSchema.optional(),
  supersededCount: z.number().int().nonnegative(),
});
export type MailboxInterrupt = z.infer<typeof mailboxInterruptSchema>;

/**
 * Input to `MailboxStore.enqueue`: ids are non-empty well-formed strings, `availableAt` a millisecond
 * time, `maxAttempts` a positive safe integer; `priority` defaults to 128 and `maxAttempts` to 3.
 */
export const enqueueDispatchInputSchema = z.object({
  threadId: storeIdSchema,
  runId: storeIdSchema,
  dispatchId: storeIdSchema.optional(),
  priority: z.number().int().min(0).max(255).overwrite(withoutNegativeZero).default(128),
  dedupeKey: storeIdSchema.optional(),
  availableAt: millisSchema.optional(),
  maxAttempts: positiveIntegerSchema.default(3),
});
export type EnqueueDispatchInput = z.input<typeof enqueueDispatchInputSchema>;
