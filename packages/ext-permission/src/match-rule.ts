import { asMatchText, resolvePath } from './internal/resolve-path';
import type { ArgumentPattern, FieldCondition, PathSegment, PermissionRule, ToolPattern } from './rule-ast';

/**
 * `undetermined`: the rule has a primary-argument glob but the call's primary argument cannot be
 * found (see {@link resolvePrimaryArgument}); the policy then treats deny and ask rules as matching.
 */
export type RuleMatch = 'match' | 'no_match' | 'undetermined';

/** Configured primary-argument paths, by exact tool name. */
export type PrimaryArgumentPaths = ReadonlyMap<string, readonly PathSegment[]>;

/** True when the tool pattern matches the whole tool name. */
export function matchToolName(pattern: ToolPattern, name: string): boolean {
  return pattern.kind === 'exact' ? pattern.name === name : pattern.regex.test(name);
}

/**
 * The call's primary argument, the text `Tool(glob)` is matched against: the configured path for
 * this tool if there is one; else the arguments themselves when they are a string; else the only
 * string-valued top-level field. Undefined when none of these applies (no or several string fields).
 */
export function resolvePrimaryArgument(
  toolName: string,
  args: unknown,
  primaryArguments?: PrimaryArgumentPaths,
): string | undefined {
  const configured = primaryArguments?.get(toolName);
  if (configured !== undefined) {
    const values = resolvePath(args, configured);
    return values.length === 1 ? asMatchText(values[0]) : undefined;
  }
  if (typeof args === 'string') return args;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  let found: string | undefined;
  for (const value of Object.values(args)) {
    if (typeof value !== 'string') continue;
    if (found !== undefined) return undefined;
    found = value;
  }
  return found;
}

function holdsFor(condition: FieldCondition, value: unknown): boolean {
  if (condition.kind === 'equals') return value === condition.value;
  const text = asMatchText(value);
  return text !== undefined && condition.regex.test(text);
}

/**
 * A positive condition holds when ANY value the path reaches satisfies it (none when the path is
 * missing). A negated one (`!~ != !=~`) holds when the path is missing or ANY value fails the positive
 * test, so `files[*] !~ "src/**"` reads "some file is outside src/".
 */
export function matchCondition(condition: FieldCondition, args: unknown): boolean {
  const values = resolvePath(args, condition.path);
  if (condition.negated) return values.length === 0 || values.some((value) => !holdsFor(condition, value));
  return values.some((value) => holdsFor(condition, value));
}

/** Matches an argument pattern against a call's arguments. */
export function matchArguments(
  pattern: ArgumentPattern,
  toolName: string,
  args: unknown,
  primaryArguments?: PrimaryArgumentPaths,
): RuleMatch {
  switch (pattern.kind) {
    case 'any':
      return 'match';
    case 'primary': {
      const primary = resolvePrimaryArgument(toolName, args, primaryArguments);
      if (primary === undefined) return 'undetermined';
      return pattern.regex.test(primary) ? 'match' : 'no_match';
    }
    case 'conditions':
      return pattern.conditions.every((condition) => matchCondition(condition, args)) ? 'match' : 'no_match';
    default: {
      const exhaustive: never = pattern;
      throw new Error(`unknown argument pattern ${JSON.stringify(exhaustive)}`);
    }
  }
}

/** Matches a parsed rule against one call. */
export function matchRule(
  rule: PermissionRule,
  call: { name: string; arguments?: unknown },
  primaryArguments?: PrimaryArgumentPaths,
): RuleMatch {
  if (!matchToolName(rule.tool, call.name)) return 'no_match';
  return matchArguments(rule.arguments, call.name, call.arguments, primaryArguments);
}
