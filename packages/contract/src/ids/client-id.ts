import { z } from 'zod';

/** The longest id a client may name (thread, run, task, context, agent, dispatch). */
export const MAX_CLIENT_ID_LENGTH = 256;

/** True when `value` holds a C0 control character (`\0`, `\n`, `\r`, …) or DEL. */
export function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** `.` and `..`: a URL normalises these path segments away, so no route could name the id afterwards. */
export function isDotSegment(value: string): boolean {
  return value === '.' || value === '..';
}

/** The messages of the two rules beyond the length, as every door words them. */
export const CLIENT_ID_RULES = {
  control: 'must not contain control characters',
  dots: 'must not be "." or ".."',
} as const;

/**
 * Why `value` is not an id a client may name, or `undefined` when it is: 1–256 characters, no control
 * character, not `.` or `..`. Every door (the native API's paths and bodies, AG-UI, the AI SDK chat,
 * A2A context and task ids) applies this one grammar, so an id one door accepts, every route can read
 * and delete.
 */
export function clientIdIssue(value: string): string | undefined {
  if (value.length === 0) return 'must not be empty';
  if (value.length > MAX_CLIENT_ID_LENGTH) return `must be at most ${MAX_CLIENT_ID_LENGTH} characters`;
  if (hasControlCharacter(value)) return CLIENT_ID_RULES.control;
  if (isDotSegment(value)) return CLIENT_ID_RULES.dots;
  return undefined;
}

/** {@link clientIdIssue} as a zod schema: a string id, refused with the rule it breaks. */
export const clientIdSchema = z
  .string()
  .min(1)
  .max(MAX_CLIENT_ID_LENGTH)
  .refine((value) => !hasControlCharacter(value), CLIENT_ID_RULES.control)
  .refine((value) => !isDotSegment(value), CLIENT_ID_RULES.dots);
