import { enqueueDispatchInputSchema } from '../../mailbox/run-dispatch';
import { isWellFormedText } from './fields';

/**
 * Cheap checks for the mailbox hot paths (see `defineStoreInput`): each returns the value its zod
 * schema would return (`-0` as `0` included), and only for inputs that schema accepts; anything
 * unusual returns `undefined` and goes through the schema, which decides and words the error. A test
 * pins the equivalence.
 */

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null;
export const isId = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && isWellFormedText(value);
const isText = (value: unknown): value is string => typeof value === 'string' && isWellFormedText(value);
const isIntIn = (value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): value is number =>
  Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;
const isMillis = (value: unknown): value is number => isIntIn(value, 0);
const isOptional = (value: unknown, check: (value: unknown) => boolean) =>
  value === undefined || check(value);

type ParsedEnqueue = ReturnType<typeof enqueueDispatchInputSchema.parse>;
/** The schema's defaults (priority, maxAttempts), read from the schema itself. */
const ENQUEUE_DEFAULTS = enqueueDispatchInputSchema.parse({ threadId: 't', runId: 'r' });

export function fastEnqueue(value: unknown): ParsedEnqueue | undefined {
  if (
    !isObject(value) ||
    !isId(value.threadId) ||
    !isId(value.runId) ||
    !isOptional(value.dispatchId, isId) ||
    !isOptional(value.priority, (priority) => isIntIn(priority, 0, 255)) ||
    !isOptional(value.dedupeKey, isId) ||
    !isOptional(value.availableAt, isMillis) ||
    !isOptional(value.maxAttempts, (attempts) => isIntIn(attempts, 1))
  ) {
    return undefined;
  }
  const parsed: ParsedEnqueue = {
    threadId: value.threadId,
    runId: value.runId,
    priority: ((value.priority as number | undefined) ?? ENQUEUE_DEFAULTS.priority) + 0,
    maxAttempts: (value.maxAttempts as number | undefined) ?? ENQUEUE_DEFAULTS.maxAttempts,
  };
  if (value.dispatchId !== undefined) parsed.dispatchId = value.dispatchId as string;
  if (value.dedupeKey !== undefined) parsed.dedupeKey = value.dedupeKey as string;
  if (value.availableAt !== undefined) parsed.availableAt = (value.availableAt as number) + 0;
  return parsed;
}

export function fastClaim(value: unknown) {
  if (!isObject(value) || !isId(value.workerId) || !isIntIn(value.limit, 1) || !isIntIn(value.leaseMs, 1)) {
    return undefined;
  }
  return { workerId: value.workerId, limit: value.limit, leaseMs: value.leaseMs };
}

export function fastClaimDispatch(value: unknown) {
  if (!isObject(value) || !isId(value.dispatchId) || !isId(value.workerId) || !isIntIn(value.leaseMs, 1)) {
    return undefined;
  }
  return { dispatchId: value.dispatchId, workerId: value.workerId, leaseMs: value.leaseMs };
}

export function fastProof(value: unknown) {
  if (!isObject(value) || !isId(value.dispatchId) || !isId(value.claimToken)) return undefined;
  return { dispatchId: value.dispatchId, claimToken: value.claimToken };
}

export function fastNack(value: unknown) {
  const proof = fastProof(value);
  if (proof === undefined || !isObject(value) || !isText(value.error)) return undefined;
  if (value.retryAt === undefined) return { ...proof, error: value.error };
  return isMillis(value.retryAt) ? { ...proof, error: value.error, retryAt: value.retryAt + 0 } : undefined;
}

export function fastExtendLease(value: unknown) {
  const proof = fastProof(value);
  if (proof === undefined || !isObject(value) || !isIntIn(value.leaseMs, 1)) return undefined;
  return { ...proof, leaseMs: value.leaseMs };
}
