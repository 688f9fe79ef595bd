import { z } from 'zod';
import { visibilitySchema } from '../../messages/message';
import { newMessageSchema } from '../../messages/message-record';
import { runRecordSchema } from '../../run/run-record';
import { runStatusSchema } from '../../run/run-status';
import { MAX_RUN_LEASE_MS } from '../run-lease';
import {
  jsonChecked,
  leaseMsSchema,
  millisSchema,
  pageRequestSchema,
  positiveIntegerSchema,
  statusFilterSchema,
  storeIdSchema,
} from './fields';
import { defineStoreInput } from './store-input';

const byThread = z.object({ threadId: storeIdSchema });
const metadataSchema = z.record(z.string(), z.unknown());
/** A count of messages or a seq bound: a safe integer >= 0. */
const countSchema = millisSchema;

/** A run record as a store keeps it: its ids are store ids. */
const storedRunRecordSchema = runRecordSchema.extend({ runId: storeIdSchema, threadId: storeIdSchema });

/** A run record as `createRun` takes it: version 0. */
const newRunSchema = storedRunRecordSchema.refine((run) => run.version === 0, {
  path: ['version'],
  message: 'a new run has version 0',
});

/** Why a checkpoint is written: the loop's checkpoint triggers. */
export const checkpointTriggerSchema = z.enum([
  'user_message',
  'assistant_turn_committed',
  'tool_results_committed',
  'run_finished',
]);

/** A checkpoint as `ThreadRunStore.commitCheckpoint` accepts it: the run must be of the checkpoint's thread. */
export const checkpointSchema = z
  .object({
    trigger: checkpointTriggerSchema,
    threadId: storeIdSchema,
    expectedMessageCount: countSchema,
    messages: z.array(newMessageSchema),
    run: storedRunRecordSchema,
    threadState: metadataSchema.optional(),
    /** The writer's run fence; 0 (the default) matches only a run never acquired. */
    fence: millisSchema.optional(),
  })
  .refine((checkpoint) => checkpoint.run.threadId === checkpoint.threadId, {
    path: ['run', 'threadId'],
    message: "must be the checkpoint's threadId (a checkpoint never moves a run to another thread)",
  });

/** A run lease request: who asks and for how long (1 ms to `MAX_RUN_LEASE_MS`). */
const runLeaseMsSchema = leaseMsSchema.max(MAX_RUN_LEASE_MS);
const leaseProof = { runId: storeIdSchema, owner: storeIdSchema, fence: positiveIntegerSchema };

/**
 * The input of every ThreadRunStore operation, as one object of its arguments by name
 * (`appendMessages(threadId, { expectedLength, messages })` →
 * `{ threadId, expectedLength, messages }`). Inputs carrying values are JSON-checked and copied.
 */
export const threadRunStoreInputs = {
  createThread: defineStoreInput(
    'createThread',
    jsonChecked(z.object({ id: storeIdSchema.optional(), metadata: metadataSchema.optional() })),
  ),
  getThread: defineStoreInput('getThread', byThread),
  listThreads: defineStoreInput(
    'listThreads',
    pageRequestSchema.extend({ order: z.enum(['oldest', 'newest']).optional() }),
  ),
  deleteThread: defineStoreInput('deleteThread', byThread),
  updateThreadMetadata: defineStoreInput(
    'updateThreadMetadata',
    jsonChecked(z.object({ threadId: storeIdSchema, metadata: metadataSchema })),
  ),
  getThreadState: defineStoreInput('getThreadState', byThread),
  appendMessages: defineStoreInput(
    'appendMessages',
    jsonChecked(
      z.object({
        threadId: storeIdSchema,
        expectedLength: countSchema,
        messages: z.array(newMessageSchema),
      }),
    ),
  ),
  readMessages: defineStoreInput(
    'readMessages',
    z.object({
      threadId: storeIdSchema,
      from: countSchema.optional(),
      to: countSchema.optional(),
      visibility: visibilitySchema.optional(),
    }),
  ),
  messageCount: defineStoreInput('messageCount', byThread),
  createRun: defineStoreInput('createRun', jsonChecked(newRunSchema)),
  createRunWithLease: defineStoreInput(
    'createRunWithLease',
    z.object({
      run: jsonChecked(newRunSchema),
      owner: storeIdSchema,
      leaseMs: runLeaseMsSchema,
      createThread: z.boolean().optional(),
    }),
  ),
  createBranch: defineStoreInput(
    'createBranch',
    jsonChecked(
      z.object({
        threadId: storeIdSchema,
        atSeq: countSchema,
        id: storeIdSchema.optional(),
        metadata: metadataSchema.optional(),
      }),
    ),
  ),
  listBranches: defineStoreInput(
    'listBranches',
    pageRequestSchema.extend({ threadId: storeIdSchema, atSeq: countSchema.optional() }),
  ),
  getRun: defineStoreInput('getRun', z.object({ runId: storeIdSchema })),
  listRuns: defineStoreInput(
    'listRuns',
    pageRequestSchema.extend({ threadId: storeIdSchema, status: statusFilterSchema(runStatusSchema) }),
  ),
  listRunsByStatus: defineStoreInput(
    'listRunsByStatus',
    pageRequestSchema.extend({ status: runStatusSchema }),
  ),
  listAllRuns: defineStoreInput(
    'listAllRuns',
    pageRequestSchema.extend({ status: statusFilterSchema(runStatusSchema) }),
  ),
  commitCheckpoint: defineStoreInput('commitCheckpoint', jsonChecked(checkpointSchema)),
  acquireRun: defineStoreInput(
    'acquireRun',
    z.object({ runId: storeIdSchema, owner: storeIdSchema, leaseMs: runLeaseMsSchema }),
  ),
  renewRun: defineStoreInput('renewRun', z.object({ ...leaseProof, leaseMs: runLeaseMsSchema })),
  releaseRun: defineStoreInput('releaseRun', z.object(leaseProof)),
};
