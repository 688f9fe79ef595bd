import { findJsonIssue, formatJsonIssue, jsonCopy } from '@awaken/contract';

/**
 * The JSON form of a tool's output, as every store and the model will see it: a Date becomes its
 * ISO string, `undefined` becomes `null`, `toJSON` is honoured. A value JSON cannot hold (BigInt,
 * a cycle, a function, NaN, nesting beyond the depth limit) yields an error message instead, so the
 * call fails like a throwing tool.
 */
export function jsonOutput(value: unknown): { value: unknown } | { error: string } {
  if (value === undefined) return { value: null };
  const issue = findJsonIssue(value);
  if (issue) return { error: `tool output is not JSON: ${formatJsonIssue(issue)}` };
  try {
    // checked above, so the direct copy gives exactly JSON.parse(JSON.stringify(value))
    const copied = jsonCopy(value);
    return { value: copied === undefined ? null : copied };
  } catch (error) {
    return { error: `tool output is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}
