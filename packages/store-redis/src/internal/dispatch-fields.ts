/**
 * How a dispatch is stored in its hash `P d:<id>` and how scripts reply with it.
 *
 * - `core`: JSON of the fields the caller gave at enqueue and that never change (dispatchId,
 *   threadId, runId, priority, maxAttempts, dedupeKey), written by the client; scripts never parse
 *   it on hot paths and pass it back as one string.
 * - `threadId`, `dedupeKey` (when set) and `score` (the ready-queue score) again as plain fields,
 *   for the scripts.
 * - DISPATCH_STATE_FIELDS: everything scripts change, one hash field each.
 *
 * A dispatch reply is the flat array `[core, ...state]` in this order, nil where a field is absent:
 * few elements and no field names, which keeps script replies and client decoding cheap.
 */
export const DISPATCH_STATE_FIELDS = [
  'dispatchEpoch',
  'status',
  'availableAt',
  'attemptCount',
  'createdAt',
  'updatedAt',
  'claimToken',
  'claimedBy',
  'leaseUntil',
  'lastError',
  'dispatchInstanceId',
  'runStatus',
  'termination',
  'runResponse',
  'runError',
  'completedAt',
] as const;

export type DispatchStateField = (typeof DISPATCH_STATE_FIELDS)[number];

/** The fields of a dispatch reply (and of an `HMGET` that reads one), in order. */
export const DISPATCH_REPLY_FIELDS = ['core', ...DISPATCH_STATE_FIELDS] as const;

/** The reply fields as a Lua table constructor, for the script prelude. */
export const DISPATCH_REPLY_FIELDS_LUA = `{ ${DISPATCH_REPLY_FIELDS.map((field) => `'${field}'`).join(', ')} }`;
