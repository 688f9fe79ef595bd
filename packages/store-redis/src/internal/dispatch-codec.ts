import { AwakenError, type RunDispatch } from '@awaken/contract';
import { checkStoredDispatch } from './dispatch-checks';
import { DISPATCH_REPLY_FIELDS, type DispatchReplyField } from './dispatch-fields';

const NUMBER_FIELDS: ReadonlySet<DispatchReplyField> = new Set<DispatchReplyField>([
  'priority',
  'maxAttempts',
  'dispatchEpoch',
  'availableAt',
  'attemptCount',
  'leaseUntil',
  'completedAt',
  'createdAt',
  'updatedAt',
]);

/**
 * Decodes a dispatch reply — values in DISPATCH_REPLY_FIELDS order, null where absent (a script's
 * `pack` or an `HMGET` of DISPATCH_REPLY_FIELDS) — and checks it against the contract schema
 * (`checkStoredDispatch`).
 */
export function decodeDispatch(row: unknown): RunDispatch {
  if (!Array.isArray(row) || row.length !== DISPATCH_REPLY_FIELDS.length) {
    throw new AwakenError('store_failure', 'redis: expected a dispatch reply');
  }
  const record: Record<string, unknown> = {};
  for (let index = 0; index < DISPATCH_REPLY_FIELDS.length; index += 1) {
    const value = row[index];
    if (value === null || value === undefined) continue;
    const field = DISPATCH_REPLY_FIELDS[index] as DispatchReplyField;
    const text = String(value);
    if (NUMBER_FIELDS.has(field)) record[field] = Number(text);
    else if (field === 'termination') record[field] = JSON.parse(text);
    else record[field] = text;
  }
  return checkStoredDispatch(record);
}

export function decodeDispatchList(reply: unknown): RunDispatch[] {
  if (!Array.isArray(reply)) throw new AwakenError('store_failure', 'redis: expected a list of dispatches');
  return reply.map(decodeDispatch);
}

/** Decodes an `HMGET` of DISPATCH_REPLY_FIELDS: null when the dispatch does not exist. */
export function decodeStoredDispatch(row: readonly (string | null)[]): RunDispatch | null {
  return row[0] === null ? null : decodeDispatch(row);
}
