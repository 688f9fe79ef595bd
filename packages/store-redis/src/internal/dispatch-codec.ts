import { AwakenError, type RunDispatch, parseWith, runDispatchSchema } from '@awaken/contract';

const NUMBER_FIELDS = new Set([
  'priority',
  'dispatchEpoch',
  'availableAt',
  'attemptCount',
  'maxAttempts',
  'leaseUntil',
  'completedAt',
  'createdAt',
  'updatedAt',
]);
const JSON_FIELDS = new Set(['termination']);
/** Bookkeeping fields of the hash that are not part of the record. */
const HIDDEN_FIELDS = new Set(['seq']);

/** Decodes the flat `HGETALL` reply of a dispatch hash and validates it with the contract schema. */
export function decodeDispatch(flat: unknown): RunDispatch {
  if (!Array.isArray(flat) || flat.length === 0) {
    throw new AwakenError('store_failure', 'redis: expected a dispatch hash');
  }
  const record: Record<string, unknown> = {};
  for (let index = 0; index + 1 < flat.length; index += 2) {
    const field = String(flat[index]);
    const value = String(flat[index + 1]);
    if (HIDDEN_FIELDS.has(field)) continue;
    if (NUMBER_FIELDS.has(field)) record[field] = Number(value);
    else if (JSON_FIELDS.has(field)) record[field] = JSON.parse(value);
    else record[field] = value;
  }
  return parseWith(runDispatchSchema, record, 'stored dispatch');
}

export function decodeDispatchList(reply: unknown): RunDispatch[] {
  if (!Array.isArray(reply)) throw new AwakenError('store_failure', 'redis: expected a list of dispatches');
  return reply.map(decodeDispatch);
}
