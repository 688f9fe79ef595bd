import { z } from 'zod';
import { isWellFormedText } from '../../json/find-json-issue';
import { copyJsonValue } from '../../json/to-json-value';

export { isWellFormedText };

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

/** `-0` as `0`: JSON and Redis write it so, and every backend must store the same number. */
export const withoutNegativeZero = (value: number): number => value + 0;

/** A point in time, a duration or a count in whole milliseconds / units: a safe integer >= 0. */
export const millisSchema = z
  .number()
  .int()
  .nonnegative()
  .max(Number.MAX_SAFE_INTEGER)
  .overwrite(withoutNegativeZero);

/** A count or size: an integer >= 1 (a safe integer). */
export const positiveIntegerSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** A lease length: whole milliseconds >= 1. */
export const leaseMsSchema = positiveIntegerSchema;

/** The longest wait a store accepts: 2^31 - 1 ms (about 24.8 days), the longest timer Node sets. */
export const MAX_WAIT_MS = 2_147_483_647;

/** A wait or a time to live: milliseconds from 0 to {@link MAX_WAIT_MS}, fractions allowed. */
export const waitMsSchema = z.number().nonnegative().max(MAX_WAIT_MS).overwrite(withoutNegativeZero);

/** A time to live: milliseconds from 0 to a hundred years, fractions allowed (rounded up). */
export const ttlMsSchema = z
  .number()
  .nonnegative()
  .max(100 * 365 * 24 * 60 * 60 * 1000)
  .overwrite(withoutNegativeZero);

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

/** A `findJsonIssue` path (`a.b[2].c`) as zod path segments (`['a', 'b', 2, 'c']`). */
function pathSegments(path: string): (string | number)[] {
  const segments: (string | number)[] = [];
  for (const match of path.matchAll(/\[(\d+)\]|\.?([^.[\]]+)/g)) {
    segments.push(match[1] === undefined ? (match[2] ?? '') : Number(match[1]));
  }
  return segments;
}

/** The schemas `jsonChecked` built: inputs that carry values (and are copied), not only ids and numbers. */
const jsonCheckedSchemas = new WeakSet<z.ZodType>();

/** Whether `schema` was built by {@link jsonChecked}: its input carries values a store keeps. */
export function isJsonChecked(schema: z.ZodType): boolean {
  return jsonCheckedSchemas.has(schema);
}

/**
 * `schema` applied to the JSON form of the input (see `copyJsonValue`): a part JSON cannot hold
 * faithfully is an issue at its path, and the parsed result shares nothing with the caller's objects.
 */
export function jsonChecked<S extends z.ZodType>(schema: S) {
  const checked = z
    .unknown()
    .transform((value, ctx) => {
      let failed = false;
      const copied = copyJsonValue(value, (issue) => {
        failed = true;
        ctx.issues.push({
          code: 'custom',
          message: issue.message,
          path: pathSegments(issue.path),
          input: value,
        });
      });
      return failed ? z.NEVER : copied;
    })
    .pipe(schema);
  jsonCheckedSchemas.add(checked);
  return checked;
}
