import type { z } from 'zod';
import { AwakenError } from './awaken-error';

/** Formats zod issues as `path: message; path: message`, naming each offending field. */
export function formatZodIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const path = issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.');
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * Parses `input` with `schema`; on failure throws `AwakenError('validation_failed')` whose message
 * names every offending field and whose `details.issues` lists them.
 */
export function parseWith<T extends z.ZodType>(schema: T, input: unknown, what = 'input'): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  throw new AwakenError('validation_failed', `invalid ${what}: ${formatZodIssues(result.error.issues)}`, {
    details: { issues: fields },
  });
}
