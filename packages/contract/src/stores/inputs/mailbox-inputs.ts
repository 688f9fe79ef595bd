import { z } from 'zod';
import {
  enqueueDispatchInputSchema,
  runDispatchResultSchema,
  runDispatchStatusSchema,
} from '../../mailbox/run-dispatch';
import {
  abortSignalSchema,
  leaseMsSchema,
  millisSchema,
  pageRequestSchema,
  positiveIntegerSchema,
  statusFilterSchema,
  storeIdSchema,
  storeTextSchema,
  waitMsSchema,
} from './fields';
import {
  fastClaim,
  fastClaimDispatch,
  fastEnqueue,
  fastExtendLease,
  fastNack,
  fastProof,
  isId,
} from './mailbox-fast-paths';
import { defineStoreInput } from './store-input';

const proof = { dispatchId: storeIdSchema, claimToken: storeIdSchema };
const byDispatch = z.object({ dispatchId: storeIdSchema });
const byThread = z.object({ threadId: storeIdSchema });
const fastDispatchId = (value: unknown) =>
  typeof value === 'object' && value !== null && isId((value as { dispatchId?: unknown }).dispatchId)
    ? { dispatchId: (value as { dispatchId: string }).dispatchId }
    : undefined;

const isObjectWithout = (value: unknown, field: string) =>
  typeof value === 'object' && value !== null && (value as Record<string, unknown>)[field] === undefined;

/** A status a dispatch keeps for good (the statuses `purgeTerminal` may delete). */
const terminalDispatchStatusSchema = z.enum(['acked', 'cancelled', 'superseded', 'dead_letter']);

/** `reclaimExpiredLeases` reclaims at most this many claims when no limit is given. */
export const DEFAULT_RECLAIM_LIMIT = 100;

/** A run result as a store keeps it: its free-text fields are well-formed Unicode. */
const storedRunResultSchema = runDispatchResultSchema.extend({
  runId: storeIdSchema,
  dispatchInstanceId: storeIdSchema,
  response: storeTextSchema.optional(),
  error: storeTextSchema.optional(),
});

/**
 * The input of every MailboxStore operation, as one object of its arguments by name
 * (`cancel(dispatchId)` → `{ dispatchId }`). Backends parse with these before touching data.
 */
export const mailboxStoreInputs = {
  enqueue: defineStoreInput('enqueue', enqueueDispatchInputSchema, fastEnqueue),
  claim: defineStoreInput(
    'claim',
    z.object({ workerId: storeIdSchema, limit: positiveIntegerSchema, leaseMs: leaseMsSchema }),
    fastClaim,
  ),
  claimDispatch: defineStoreInput(
    'claimDispatch',
    z.object({ dispatchId: storeIdSchema, workerId: storeIdSchema, leaseMs: leaseMsSchema }),
    fastClaimDispatch,
  ),
  enqueueAndClaim: defineStoreInput(
    'enqueueAndClaim',
    enqueueDispatchInputSchema.extend({
      workerId: storeIdSchema,
      leaseMs: leaseMsSchema,
      dispatchInstanceId: storeIdSchema.optional(),
    }),
  ),
  ack: defineStoreInput(
    'ack',
    z.object({ ...proof, result: storedRunResultSchema.optional() }),
    // with a result the schema checks it (its free text, its termination)
    (value) => (isObjectWithout(value, 'result') ? fastProof(value) : undefined),
  ),
  nack: defineStoreInput(
    'nack',
    z.object({ ...proof, error: storeTextSchema, retryAt: millisSchema.optional() }),
    fastNack,
  ),
  deadLetter: defineStoreInput('deadLetter', z.object({ ...proof, error: storeTextSchema })),
  cancel: defineStoreInput('cancel', byDispatch, fastDispatchId),
  markRequeued: defineStoreInput(
    'markRequeued',
    z.object({ dispatchId: storeIdSchema, runId: storeIdSchema, requeueDispatchId: storeIdSchema }),
  ),
  extendLease: defineStoreInput(
    'extendLease',
    z.object({ ...proof, leaseMs: leaseMsSchema }),
    fastExtendLease,
  ),
  interrupt: defineStoreInput('interrupt', byThread),
  supersedeClaimed: defineStoreInput('supersedeClaimed', byDispatch, fastDispatchId),
  recordDispatchStart: defineStoreInput(
    'recordDispatchStart',
    z.object({ ...proof, dispatchInstanceId: storeIdSchema }),
  ),
  recordRunResult: defineStoreInput('recordRunResult', z.object({ ...proof, result: storedRunResultSchema })),
  loadDispatch: defineStoreInput('loadDispatch', byDispatch, fastDispatchId),
  listDispatches: defineStoreInput(
    'listDispatches',
    pageRequestSchema.extend({
      threadId: storeIdSchema,
      status: statusFilterSchema(runDispatchStatusSchema),
    }),
  ),
  countDispatches: defineStoreInput('countDispatches', z.object({})),
  listDispatchesByStatus: defineStoreInput(
    'listDispatchesByStatus',
    pageRequestSchema.extend({ status: runDispatchStatusSchema }),
  ),
  threadEpoch: defineStoreInput('threadEpoch', byThread),
  reclaimExpiredLeases: defineStoreInput(
    'reclaimExpiredLeases',
    z.object({ limit: positiveIntegerSchema.default(DEFAULT_RECLAIM_LIMIT) }),
  ),
  purgeTerminal: defineStoreInput(
    'purgeTerminal',
    z.object({ olderThan: millisSchema, status: statusFilterSchema(terminalDispatchStatusSchema) }),
  ),
  waitForWork: defineStoreInput(
    'waitForWork',
    z.object({ timeoutMs: waitMsSchema, signal: abortSignalSchema.optional() }),
  ),
};
