/**
 * How a dispatch is stored in its hash `P d:<id>` and how scripts reply with it. Every field is one
 * short hash field (values stay under Redis's `hash-max-listpack-value`, so the hash stays a compact
 * listpack), plus the hidden `score` (its ready-queue score).
 *
 * A dispatch reply is the flat array of DISPATCH_REPLY_FIELDS values in this order, nil where a field
 * is absent: no field names, few elements, which keeps script replies and client decoding cheap.
 */
export const DISPATCH_REPLY_FIELDS = [
  'dispatchId',
  'threadId',
  'runId',
  'priority',
  'maxAttempts',
  'dedupeKey',
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

export type DispatchReplyField = (typeof DISPATCH_REPLY_FIELDS)[number];

/** The reply fields as a Lua table constructor, for the script prelude. */
export const DISPATCH_REPLY_FIELDS_LUA = `{ ${DISPATCH_REPLY_FIELDS.map((field) => `'${field}'`).join(', ')} }`;
