import { z } from 'zod';
import { findJsonIssue, formatJsonIssue } from './find-json-issue';

/**
 * Any value JSON can hold faithfully (see {@link findJsonIssue}): a BigInt, a non-finite number, a
 * cycle or nesting deeper than the limit fails with a message naming where.
 */
export const jsonValueSchema = z.unknown().superRefine((value, context) => {
  const issue = findJsonIssue(value);
  if (issue) context.addIssue({ code: 'custom', message: formatJsonIssue(issue) });
});
