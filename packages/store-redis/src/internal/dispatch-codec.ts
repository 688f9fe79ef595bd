import { AwakenError, type RunDispatch } from '@awaken/contract';
import { checkStoredDispatch } from './dispatch-checks';
import { DISPATCH_REPLY_FIELDS, DISPATCH_STATE_FIELDS, type DispatchStateField } from './dispatch-fields';

const NUMBER_FIELDS: ReadonlySet<DispatchStateField> = new Set<DispatchStateField>([
  'dispatchEpoch',
  'availableAt',
  'attemptCount',
  'leaseUntil',
  'completedAt',
  'createdAt',
  'updatedAt',
]);

/**
 * Decodes a dispatch reply — `[core, ...state]` in DISPATCH_REPLY_FIELDS order, null where absent
 * (a script's `pack` or an `HMGET` of DISPATCH_REPLY_FIELDS) — and checks it against the contract
 * schema (`checkStoredDispatch`). Only RunDispatch keys are copied from `core`.
 */
export function decodeDispatch(row: unknown): RunDispatch {
  if (!Array.isArray(row) || row.length !== DISPATCH_REPLY_FIELDS.length || typeof row[0] !== 'string') {
    throw new AwakenError('store_failure', 'redis: expected a dispatch reply');
  }
  const core = JSON.parse(row[0]) as Record<string, unknown>;
  const record: Record<string, unknown> = {
    dispatchId: core.dispatchId,
    threadId: core.threadId,
    runId: core.runId,
    priority: core.priority,
    maxAttempts: core.maxAttempts,
  };
  if (core.dedupeKey !== undefined) record.dedupeKey = core.dedupeKey;
  for (let index = 0; index < DISPATCH_STATE_FIELDS.length; index += 1) {
    const value = row[index + 1];
    if (value === null || value === undefined) continue;
    const field = DISPATCH_STATE_FIELDS[index] as DispatchStateField;
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
