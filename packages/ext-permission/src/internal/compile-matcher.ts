import { assertNever } from '@awaken/contract';
import type { ArgumentPattern, FieldCondition, ToolPattern } from '../rule-ast';
import { compileGlobMatcher } from './compile-glob';
import { type PathReading, compilePathGlob, isPathGlob } from './match-path';
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
  if (pattern.kind === 'regex') {
    const regex = pattern.regex;
    return (name) => regex.test(name);
  }
  const prefix = literalPrefix(pattern.source);
  const test = compileGlobMatcher(pattern.source);
  return (name) => name.startsWith(prefix) && test(name);
}

/**
 * A glob test on text. A path glob (one starting with `/`) also reads the value as a canonical path,
 * counting the two readings by `reading` (see {@link PathReading}); any other glob sees the text as is.
 */
function compileTextGlob(glob: string, reading: PathReading): (text: string) => boolean {
  if (!isPathGlob(glob)) return compileGlobMatcher(glob);
  const test = compilePathGlob(glob);
  return (text) => test(text, reading);
}

function compileValueTest(condition: FieldCondition, reading: PathReading): (value: unknown) => boolean {
  if (condition.kind === 'equals') {
    const expected = condition.value;
    return (value) => value === expected;
  }
  let test: (text: string) => boolean;
  if (condition.kind === 'glob') test = compileTextGlob(condition.source, reading);
  else {
    const regex = condition.regex;
    test = (text) => regex.test(text);
  }
  return (value) => {
    const text = asMatchText(value);
    return text !== undefined && test(text);
  };
}

/** The reading of path globs that makes a rule of this behaviour apply the more strictly. */
export function pathReadingFor(behavior: 'allow' | 'ask' | 'deny'): PathReading {
  return behavior === 'allow' ? 'every' : 'some';
}

/**
 * A positive condition holds when any value at the path passes; a negated one when the path reaches
 * no value or any value fails the positive test. `reading` is how a positive path glob counts the
 * two readings of a path; a negated one uses the other, so that `!~` leans the same way: for a deny
 * rule, `path !~ "/home/**"` holds when either reading is outside `/home`.
 */
export function compileConditionMatcher(
  condition: FieldCondition,
  reading: PathReading = 'some',
): (args: unknown) => boolean {
  const { path, negated } = condition;
  const positive = compileValueTest(condition, negated ? opposite(reading) : reading);
  if (!negated) return (args) => someValue(args, path, 0, positive) === SOME_PASSED;
  const failing = (value: unknown): boolean => !positive(value);
  return (args) => someValue(args, path, 0, failing) !== NONE_PASSED;
}

function opposite(reading: PathReading): PathReading {
  return reading === 'some' ? 'every' : 'some';
}

/**
 * A matcher for the argument part of a rule. `reading`: how path globs count a path's two readings,
 * `some` for deny and ask rules, `every` for allow rules (see {@link pathReadingFor}).
 */
export function compileArgumentMatcher(
  pattern: ArgumentPattern,
  reading: PathReading = 'some',
): (args: unknown, primary: PrimaryLookup) => ArgumentMatch {
  switch (pattern.kind) {
    case 'any':
      return () => 'match';
    case 'primary': {
      const test = compileTextGlob(pattern.source, reading);
      return (_args, primary) => {
        const text = primary.get();
        if (text === undefined) return 'undetermined';
        return test(text) ? 'match' : 'no_match';
      };
    }
    case 'conditions': {
      const matchers = pattern.conditions.map((condition) => compileConditionMatcher(condition, reading));
      return (args) => {
        for (const matcher of matchers) if (!matcher(args)) return 'no_match';
        return 'match';
      };
    }
    default:
      return assertNever(pattern, 'argument pattern');
  }
}
