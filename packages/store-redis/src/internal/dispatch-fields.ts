import type { RunDispatch } from '@awaken/contract';

/**
 * How a dispatch is stored in its hash `P d:<id>`: one short hash field per RunDispatch field (absent
 * when the field is), plus `q`, its ready-queue score. Short names keep the hash a small listpack and
 * the replies short. The dispatch id is the key's suffix, not a field.
 *
 * Scripts reply with a dispatch as the raw `HGETALL` of its hash (field, value, field, value, ...),
 * which costs the script no per-field work; the client maps the names back (`dispatch-codec.ts`).
 */
export const DISPATCH_FIELD_NAMES = {
  t: 'threadId',
  r: 'runId',
  p: 'priority',
  m: 'maxAttempts',
  k: 'dedupeKey',
  e: 'dispatchEpoch',
  s: 'status',
  a: 'availableAt',
  n: 'attemptCount',
  c: 'createdAt',
  u: 'updatedAt',
  ct: 'claimToken',
  cb: 'claimedBy',
  l: 'leaseUntil',
  x: 'lastError',
  ri: 'dispatchInstanceId',
  rs: 'runStatus',
  rt: 'termination',
  rr: 'runResponse',
  re: 'runError',
  rc: 'completedAt',
} as const satisfies Record<string, Exclude<keyof RunDispatch, 'dispatchId'>>;

export type DispatchField = keyof typeof DISPATCH_FIELD_NAMES;

/** Stored fields whose values are integers (milliseconds, counters, priority). */
export const NUMBER_FIELDS: ReadonlySet<string> = new Set<DispatchField>([
  'p',
  'm',
  'e',
  'a',
  'n',
  'c',
  'u',
  'l',
  'rc',
]);
