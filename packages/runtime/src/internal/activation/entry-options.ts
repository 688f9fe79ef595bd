import {
  AwakenError,
  type ToolCallDecisionInput,
  forkOriginSchema,
  formatZodIssues,
  runLeaseSchema,
  runRequestOriginSchema,
  userMessageSchema,
} from '@awaken/contract';
import { z } from 'zod';
import type { ResumeRunOptions, RunRequest } from '../../types';
import { isChildId } from '../child-ids/child-ids';

const id = z.string().min(1);
const signal = z.instanceof(AbortSignal, { message: 'expected an AbortSignal' });
const onSuspend = z.enum(['wait', 'return']);

/** The fields of a run request checked here; `tools` and `context` are checked against the agent. */
const notChild = (kind: 'run' | 'thread') => (value: string) => !isChildId(kind, value);
const runRequestSchema = z.object({
  agentId: z.string(),
  threadId: id
    .refine(
      notChild('thread'),
      "is a sub-agent child thread's id (subthread_ and 32 hex digits): the runtime's own",
    )
    .optional(),
  runId: id
    .refine(notChild('run'), "is a sub-agent child run's id (sub_ and 32 hex digits): the runtime's own")
    .optional(),
  input: z.union([z.string(), z.array(userMessageSchema)]).optional(),
  signal: signal.optional(),
  onSuspend: onSuspend.optional(),
  onOpenRun: z.enum(['refuse', 'cancel']).optional(),
  origin: runRequestOriginSchema.optional(),
  forkOf: forkOriginSchema.optional(),
  newThread: z.boolean().optional(),
});

/**
 * `decisions` must be an array; each element is checked like a decision given to `decide` (a
 * malformed one is a rejected receipt, `invalid_payload`, as for any other sender).
 */
const resumeRunOptionsSchema = z.object({
  decisions: z.array(z.unknown()).optional(),
  signal: signal.optional(),
  onSuspend: onSuspend.optional(),
  lease: runLeaseSchema.optional(),
  // the record is the store's, read in the same step as the lease: only its shape is checked here
  acquired: z
    .object({
      lease: runLeaseSchema,
      lastSeq: z.number().int().nonnegative(),
      run: z.object({ runId: z.string(), threadId: z.string() }).passthrough(),
    })
    .optional(),
  onAgentChange: z.enum(['continue', 'refuse']).optional(),
});

function invalid(what: string, error: z.ZodError): AwakenError {
  const field = error.issues[0]?.path.map(String).join('.') || what;
  return new AwakenError('validation_failed', `invalid ${what}: ${formatZodIssues(error.issues)}`, {
    details: { field },
  });
}

/** Checks a run request's shape: `validation_failed` naming the field, before anything is written. */
export function checkRunRequest(request: RunRequest): void {
  if (typeof request !== 'object' || request === null) {
    throw new AwakenError('validation_failed', 'invalid run request: expected an object', {
      details: { field: 'request' },
    });
  }
  const parsed = runRequestSchema.safeParse(request);
  if (!parsed.success) throw invalid('run request', parsed.error);
}

/** Checks a run id given to `resumeRun`, `cancelRun` or `decide`. */
export function checkRunId(runId: unknown): asserts runId is string {
  const parsed = id.safeParse(runId);
  if (!parsed.success) {
    throw new AwakenError('validation_failed', 'runId: expected a non-empty string', {
      details: { field: 'runId' },
    });
  }
}

/** Checks `resumeRun` options (not the decisions themselves, which get receipts). */
export function checkResumeOptions(options: unknown): ResumeRunOptions {
  const given = options ?? {};
  const parsed = resumeRunOptionsSchema.safeParse(given);
  if (!parsed.success) throw invalid('resumeRun options', parsed.error);
  return given as ResumeRunOptions;
}

/** Checks the reason given to `cancelRun`. */
export function checkReason(reason: unknown): asserts reason is string {
  if (typeof reason !== 'string') {
    throw new AwakenError('validation_failed', 'reason: expected a string', { details: { field: 'reason' } });
  }
}

/** Decisions as given to `decide`: one, or an array (elements are checked one by one). */
export function decisionList(decisions: unknown): ToolCallDecisionInput[] {
  return (Array.isArray(decisions) ? decisions : [decisions]) as ToolCallDecisionInput[];
}
