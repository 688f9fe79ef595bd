import type { RunDispatch } from '@awaken/contract';

/**
 * How a dispatch is stored in its hash `P d:<id>`: one short hash field per RunDispatch field (absent
 * when the field is), except the inputs that never change and that the hot scripts never read
 * (priority, maxAttempts, dispatchEpoch, createdAt, runId), packed in one field `i` (see
 * {@link INPUTS_FIELD}); plus `q`, its ready-queue score. Few fields with short names keep the hash a
 * small listpack and the replies short: each field costs a Lua script time on every read and reply.
 * The dispatch id is the key's suffix, not a field.
 *
 * Scripts reply with a dispatch as the raw `HGETALL` of its hash (field, value, field, value, ...),
 * which costs the script no per-field work; the client maps the names back (`dispatch-codec.ts`).
 */
export const DISPATCH_FIELD_NAMES = {
  t: 'threadId',
  k: 'dedupeKey',
  s: 'status',
  a: 'availableAt',
  n: 'attemptCount',
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
  qr: 'requeuedRunId',
  qd: 'requeuedDispatchId',
} as const satisfies Record<string, Exclude<keyof RunDispatch, 'dispatchId'>>;

export type DispatchField = keyof typeof DISPATCH_FIELD_NAMES;

/** Stored fields whose values are integers (milliseconds, counters, priority). */
export const NUMBER_FIELDS: ReadonlySet<string> = new Set<DispatchField>(['a', 'n', 'u', 'l', 'rc']);

/**
 * The packed inputs: `priority,maxAttempts,dispatchEpoch,createdAt,runId` (the four integers first,
 * so the run id may hold any character).
 */
export const INPUTS_FIELD = 'i';
const INPUTS = /^(\d+),(\d+),(\d+),(\d+),/;

/**
 * Sets the packed inputs (see {@link INPUTS_FIELD}) on `record`; a broken value sets none of them, so
 * the schema check of the record names them.
 */
export function unpackInputs(record: Record<string, unknown>, text: string): void {
  const match = INPUTS.exec(text);
  if (match === null) return;
  record.priority = Number(match[1]);
  record.maxAttempts = Number(match[2]);
  record.dispatchEpoch = Number(match[3]);
  record.createdAt = Number(match[4]);
  record.runId = text.slice(match[0].length);
}
