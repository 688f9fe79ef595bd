import type { PermissionBehavior } from '../permission-config';
import type { PrimaryLookup } from './compile-matcher';
import type { CompiledRule } from './compile-rule';
import { compareSpecificity } from './specificity';

/** Rules whose tool pattern matches one tool, per behaviour, most specific first. */
export interface RuleGroups {
  deny: readonly CompiledRule[];
  ask: readonly CompiledRule[];
  allow: readonly CompiledRule[];
}

/** A rule that matched, and whether only because the primary argument was undetermined. */
export interface Candidate {
  compiled: CompiledRule;
  undetermined: boolean;
}

/** Most specific first; equally specific rules in declaration order. */
export function byPrecedence(a: CompiledRule, b: CompiledRule): number {
  return compareSpecificity(b.specificity, a.specificity) || a.order - b.order;
}

/** Groups rules by behaviour, each group sorted by {@link byPrecedence}. */
export function groupRules(rules: Iterable<CompiledRule>): RuleGroups {
  const groups = { deny: [] as CompiledRule[], ask: [] as CompiledRule[], allow: [] as CompiledRule[] };
  for (const rule of rules) groups[rule.behavior].push(rule);
  groups.deny.sort(byPrecedence);
  groups.ask.sort(byPrecedence);
  groups.allow.sort(byPrecedence);
  return groups;
}

const MAX_CACHED_TOOLS = 10_000;

/**
 * Tool name → the configured rules whose tool pattern matches it, computed once per name. Tool
 * patterns are therefore never re-tested on the hot path; only argument patterns are.
 */
export function createRuleIndex(rules: readonly CompiledRule[]): (toolName: string) => RuleGroups {
  const cache = new Map<string, RuleGroups>();
  return (toolName) => {
    let groups = cache.get(toolName);
    if (groups === undefined) {
      if (cache.size >= MAX_CACHED_TOOLS) cache.clear();
      groups = groupRules(rules.filter((rule) => rule.matchTool(toolName)));
      cache.set(toolName, groups);
    }
    return groups;
  };
}

/**
 * The first (so most specific) rule of a sorted group that matches the arguments. A rule whose
 * primary argument is undetermined counts as matching for deny and ask, never for allow.
 */
export function firstMatch(
  rules: readonly CompiledRule[],
  behavior: PermissionBehavior,
  args: unknown,
  primary: PrimaryLookup,
): Candidate | undefined {
  for (const compiled of rules) {
    const match = compiled.matchArguments(args, primary);
    if (match === 'match') return { compiled, undetermined: false };
    if (match === 'undetermined' && behavior !== 'allow') return { compiled, undetermined: true };
  }
  return undefined;
}
