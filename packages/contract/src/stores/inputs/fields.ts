import { z } from 'zod';
import { copyJsonValue } from '../json-value';

/** `String.prototype.isWellFormed` (Node 20; not yet in the ES2023 lib typings). */
type WellFormedCheck = { isWellFormed(): boolean };

/** True when `value` has no lone surrogate, so it survives UTF-8 (and Redis) unchanged. */
export function isWellFormedText(value: string): boolean {
  return (value as unknown as WellFormedCheck).isWellFormed();
}

/** Free text a store keeps as is (errors, worker names): a string of well-formed Unicode. */
export const storeTextSchema = z
  .string()
  .refine(isWellFormedText, 'must be well-formed Unicode (no lone surrogate)');

/**
 * An identifier (thread, run, dispatch, decision, dedupe key, worker, claim token): a non-empty
 * string of well-formed Unicode. Any other character is allowed, `:` and `\0` included.
 */
export const storeIdSchema = z
  .string()
  .min(1)
  .refine(isWellFormedText, 'must be well-formed Unicode (no lone surrogate)');

/** A point in time or a duration in whole milliseconds. */
export const millisSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** A count or size: an integer >= 1 (a safe integer). */
export const positiveIntegerSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** A lease length: whole milliseconds >= 1. */
export const leaseMsSchema = positiveIntegerSchema;

/** A wait: milliseconds >= 0, fractions allowed. */
export const waitMsSchema = z.number().nonnegative().finite();

/** The page size every listing accepts: 50 by default, more than 1000 is served as 1000. */
export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 1000;

/**
 * Paging input: `cursor` is the `nextCursor` a store returned (a decimal string of digits);
 * `limit` an integer >= 1.
 */
export const pageRequestSchema = z.object({
  cursor: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,15})$/, 'must be a cursor a listing returned')
    .refine((cursor) => Number.isSafeInteger(Number(cursor)), 'must be a cursor a listing returned')
    .optional(),
  limit: positiveIntegerSchema.optional(),
});

/** The page size of a parsed page request. */
export function pageSize(limit: number | undefined): number {
  return Math.min(limit ?? DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT);
}

/** A status filter: a non-empty list (an empty list would be ambiguous: nothing or everything). */
export function statusFilterSchema<T extends z.ZodType>(status: T) {
  return z.array(status).min(1).optional();
}

/** An `AbortSignal` (checked by kind only). */
export const abortSignalSchema = z.custom<AbortSignal>(
  (value) => value instanceof AbortSignal,
  'must be an AbortSignal',
);

/**
 * `schema` applied to the JSON copy of the input (see `copyJsonValue`): every part of the input that
 * is not JSON is an issue at its path, and the parsed result shares nothing with the caller's objects.
 */
export function jsonChecked<S extends z.ZodType>(schema: S) {
  return z
    .unknown()
    .transform((value, ctx) => {
      let failed = false;
      const copied = copyJsonValue(value, (issue) => {
        failed = true;
        ctx.issues.push({ code: 'custom', message: issue.message, path: issue.path, input: value });
      });
      return failed ? z.NEVER : copied;
    })
    .pipe(schema);
}
