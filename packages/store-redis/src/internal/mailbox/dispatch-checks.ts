import {
  type RunDispatch,
  parseWith,
  runDispatchSchema,
  runDispatchStatusSchema,
  runStatusSchema,
} from '@awaken/contract';

/**
 * A cheap check of dispatches read back from Redis (the inputs' checks live in the contract). It is
 * a sufficient condition for the contract schema: what passes here would pass zod unchanged;
 * anything else goes through the zod schema, which decides (and words the error).
 */

const DISPATCH_STATUSES: ReadonlySet<unknown> = new Set(runDispatchStatusSchema.options);
const RUN_STATUSES: ReadonlySet<unknown> = new Set(runStatusSchema.options);

const isId = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isIntIn = (value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): value is number =>
  Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;
const isMillis = (value: unknown): value is number => isIntIn(value, 0);
const isOptional = (value: unknown, check: (value: unknown) => boolean) =>
  value === undefined || check(value);
const isString = (value: unknown) => typeof value === 'string';

/**
 * A dispatch decoded from Redis (only RunDispatch keys), checked against the contract schema;
 * `validation_failed` when it breaks it.
 */
export function checkStoredDispatch(record: Record<string, unknown>): RunDispatch {
  const r = record;
  if (
    isId(r.dispatchId) &&
    isId(r.threadId) &&
    isId(r.runId) &&
    isIntIn(r.priority, 0, 255) &&
    isOptional(r.dedupeKey, isString) &&
    isMillis(r.dispatchEpoch) &&
    DISPATCH_STATUSES.has(r.status) &&
    isMillis(r.availableAt) &&
    isMillis(r.attemptCount) &&
    isIntIn(r.maxAttempts, 1) &&
    isOptional(r.lastError, isString) &&
    isOptional(r.claimToken, isString) &&
    isOptional(r.claimedBy, isString) &&
    isOptional(r.leaseUntil, isMillis) &&
    isOptional(r.dispatchInstanceId, isString) &&
    isOptional(r.runStatus, (status) => RUN_STATUSES.has(status)) &&
    r.termination === undefined &&
    isOptional(r.runResponse, isString) &&
    isOptional(r.runError, isString) &&
    isOptional(r.completedAt, isMillis) &&
    isOptional(r.requeuedRunId, isId) &&
    isOptional(r.requeuedDispatchId, isId) &&
    isMillis(r.createdAt) &&
    isMillis(r.updatedAt)
  ) {
    return r as RunDispatch;
  }
  // Rare shapes (a termination, a broken record): the schema decides.
  return parseWith(runDispatchSchema, record, 'stored dispatch');
}
