import { assertNever } from '@awaken/contract';
import type { ArgumentPattern, FieldCondition, ToolPattern } from '../rule-ast';
import { NONE_PASSED, SOME_PASSED, asMatchText, someValue } from './resolve-path';

/** See `RuleMatch` in match-rule.ts. */
export type ArgumentMatch = 'match' | 'no_match' | 'undetermined';

/** Gives the call's primary argument (the caller computes it at most once per call). */
export interface PrimaryLookup {
  get(): string | undefined;
}

/** Literal text before the first wildcard of a glob without escapes, to skip most regex runs. */
function literalPrefix(glob: string): string {
  const end = glob.search(/[*?\\]/);
  return end === -1 ? glob : glob.slice(0, end);
}

/** A predicate on the tool name, specialised for the pattern kind. */
export function compileToolMatcher(pattern: ToolPattern): (name: string) => boolean {
  if (pattern.kind === 'exact') {
    const expected = pattern.name;
    return (name) => name === expected;
  }
  const regex = pattern.regex;
  if (pattern.kind === 'regex') return (name) => regex.test(name);
  const prefix = literalPrefix(pattern.source);
  return (name) => name.startsWith(prefix) && regex.test(name);
}

function compileValueTest(condition: FieldCondition): (value: unknown) => boolean {
  if (condition.kind === 'equals') {
    const expected = condition.value;
    return (value) => value === expected;
  }
  const regex = condition.regex;
  return (value) => {
    const text = asMatchText(value);
    return text !== undefined && regex.test(text);
  };
}

/**
 * A positive condition holds when any value at the path passes; a negated one when the path reaches
 * no value or any value fails the positive test.
 */
export function compileConditionMatcher(condition: FieldCondition): (args: unknown) => boolean {
  const { path, negated } = condition;
  const positive = compileValueTest(condition);
  if (!negated) return (args) => someValue(args, path, 0, positive) === SOME_PASSED;
  const failing = (value: unknown): boolean => !positive(value);
  return (args) => someValue(args, path, 0, failing) !== NONE_PASSED;
}

/** A matcher for the argument part of a rule. */
export function compileArgumentMatcher(
  pattern: ArgumentPattern,
): (args: unknown, primary: PrimaryLookup) => ArgumentMatch {
  switch (pattern.kind) {
    case 'any':
      return () => 'match';
    case 'primary': {
      const regex = pattern.regex;
      return (_args, primary) => {
        const text = primary.get();
        if (text === undefined) return 'undetermined';
        return regex.test(text) ? 'match' : 'no_match';
      };
    }
    case 'conditions': {
      const matchers = pattern.conditions.map(compileConditionMatcher);
      return (args) => {
        for (const matcher of matchers) if (!matcher(args)) return 'no_match';
        return 'match';
      };
    }
    default:
      return assertNever(pattern, 'argument pattern');
  }
}
