import {
  type PrimaryLookup,
  compileArgumentMatcher,
  compileConditionMatcher,
  compileToolMatcher,
  pathReadingFor,
} from './internal/compile-matcher';
import { asMatchText, resolvePath } from './internal/resolve-path';
import type { PermissionBehavior } from './permission-config';
import type { ArgumentPattern, FieldCondition, PathSegment, PermissionRule, ToolPattern } from './rule-ast';

/**
 * `undetermined`: the rule has a primary-argument glob but the call's primary argument cannot be
 * found (see {@link resolvePrimaryArgument}); the policy then treats deny and ask rules as matching.
 */
export type RuleMatch = 'match' | 'no_match' | 'undetermined';

/** Configured primary-argument paths, by exact tool name. */
export type PrimaryArgumentPaths = ReadonlyMap<string, readonly PathSegment[]>;

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
  for (const key in args) {
    if (!Object.hasOwn(args, key)) continue;
    const value = (args as Record<string, unknown>)[key];
    if (typeof value !== 'string') continue;
    if (found !== undefined) return undefined;
    found = value;
  }
  return found;
}

/** True when the tool pattern matches the whole tool name. */
export function matchToolName(pattern: ToolPattern, name: string): boolean {
  return compileToolMatcher(pattern)(name);
}

/**
 * A positive condition holds when ANY value the path reaches satisfies it (none when the path is
 * missing). A negated one (`!~ != !=~`) holds when the path is missing or ANY value fails the positive
 * test, so `files[*] !~ "src/**"` reads "some file is outside src/".
 *
 * `behavior` is the behaviour of the rule the condition belongs to (default `deny`): a path glob
 * (starting with `/`) matches a deny or ask rule when the path as written OR its canonical form
 * matches, and an allow rule only when both do.
 */
export function matchCondition(
  condition: FieldCondition,
  args: unknown,
  behavior: PermissionBehavior = 'deny',
): boolean {
  return compileConditionMatcher(condition, pathReadingFor(behavior))(args);
}

/** Matches an argument pattern against a call's arguments (`behavior`: see {@link matchCondition}). */
export function matchArguments(
  pattern: ArgumentPattern,
  toolName: string,
  args: unknown,
  primaryArguments?: PrimaryArgumentPaths,
  behavior: PermissionBehavior = 'deny',
): RuleMatch {
  const primary: PrimaryLookup = { get: () => resolvePrimaryArgument(toolName, args, primaryArguments) };
  return compileArgumentMatcher(pattern, pathReadingFor(behavior))(args, primary);
}

/**
 * Matches a parsed rule against one call (compiles it on each call; policies compile once).
 * `behavior`: see {@link matchCondition}.
 */
export function matchRule(
  rule: PermissionRule,
  call: { name: string; arguments?: unknown },
  primaryArguments?: PrimaryArgumentPaths,
  behavior: PermissionBehavior = 'deny',
): RuleMatch {
  if (!matchToolName(rule.tool, call.name)) return 'no_match';
  return matchArguments(rule.arguments, call.name, call.arguments, primaryArguments, behavior);
}

/** Resolves a call's primary argument on first use and remembers it (one object per evaluated call). */
export class PrimaryArgumentCache implements PrimaryLookup {
  private resolved = false;
  private value: string | undefined;

  constructor(
    private readonly toolName: string,
    private readonly args: unknown,
    private readonly primaryArguments: PrimaryArgumentPaths,
  ) {}

  get(): string | undefined {
    if (!this.resolved) {
      this.value = resolvePrimaryArgument(this.toolName, this.args, this.primaryArguments);
      this.resolved = true;
    }
    return this.value;
  }
}
