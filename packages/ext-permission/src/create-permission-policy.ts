import { AwakenError, formatZodIssues } from '@awaken/contract';
import { readPath } from './internal/parse-conditions';
import { RuleScanner, RuleSyntaxFailure } from './internal/rule-scanner';
import { compareSpecificity, ruleSpecificity } from './internal/specificity';
import { type PrimaryArgumentPaths, matchRule, matchToolName } from './match-rule';
import { parseRuleOrThrow } from './parse-rule';
import {
  type PermissionBehavior,
  type PermissionConfig,
  type PermissionConfigInput,
  type PermissionRuleConfig,
  permissionConfigSchema,
} from './permission-config';
import type { PathSegment, PermissionRule } from './rule-ast';

/** The part of a tool call a policy looks at. */
export interface PermissionCall {
  name: string;
  arguments?: unknown;
}

/** Rules that live in run or thread state rather than in the configuration. */
export interface PermissionRuntimeRules {
  /** Extra rules, evaluated with the configured ones under the same precedence. */
  overrides?: readonly PermissionRuleConfig[];
  /** Remembered approvals (rule texts): they turn an `ask` into `allow`, never a `deny`. */
  grants?: readonly string[];
}

/** The outcome for one call. `rule` is the reported rule's text (absent when the default applied). */
export interface PermissionDecision {
  behavior: PermissionBehavior;
  source: 'rule' | 'override' | 'default' | 'remembered';
  rule?: string;
  /** A sentence naming the rule (or the default) that decided, for the model and for humans. */
  reason: string;
}

/** A compiled configuration. Pure: evaluating never changes it. */
export interface PermissionPolicy {
  readonly config: PermissionConfig;
  /**
   * Decides one call. Among matching rules deny > ask > allow; the most specific matching rule of the
   * winning behaviour is reported; no match → `defaultBehavior`; a matching grant turns ask into allow.
   */
  evaluate(call: PermissionCall, runtimeRules?: PermissionRuntimeRules): PermissionDecision;
  /** True when every call of `toolName` is denied whatever its arguments. */
  isDeniedUnconditionally(toolName: string, runtimeRules?: PermissionRuntimeRules): boolean;
}

interface CompiledRule {
  rule: PermissionRule;
  behavior: PermissionBehavior;
  source: 'rule' | 'override';
  order: number;
  specificity: [number, number, number];
}

function compile(config: PermissionRuleConfig, source: CompiledRule['source'], order: number): CompiledRule {
  const label = source === 'rule' ? `rules[${order}]` : 'override rule';
  const rule = parseRuleOrThrow(config.tool, label);
  return { rule, behavior: config.behavior, source, order, specificity: ruleSpecificity(rule) };
}

function compilePrimaryArguments(paths: Record<string, string>): Map<string, PathSegment[]> {
  const compiled = new Map<string, PathSegment[]>();
  for (const [tool, text] of Object.entries(paths)) {
    const scanner = new RuleScanner(text);
    try {
      compiled.set(tool, readPath(scanner));
      if (!scanner.atEnd) scanner.fail(`unexpected ${scanner.describeHere()}`);
    } catch (error) {
      if (!(error instanceof RuleSyntaxFailure)) throw error;
      throw new AwakenError(
        'invalid_config',
        `invalid primaryArguments.${tool} ${JSON.stringify(text)}: ${error.reason} (position ${error.position})`,
        { details: { tool, path: text, position: error.position, reason: error.reason } },
      );
    }
  }
  return compiled;
}

function reasonFor(behavior: PermissionBehavior, winner: CompiledRule, undetermined: boolean): string {
  const what = behavior === 'deny' ? 'denied by' : behavior === 'ask' ? 'approval required by' : 'allowed by';
  const kind = winner.source === 'override' ? 'run override rule' : 'permission rule';
  const note = undetermined ? ' (the call has no single primary argument, so the stricter rule applies)' : '';
  return `${what} ${kind} ${JSON.stringify(winner.rule.text)}${note}`;
}

function parseConfig(input: PermissionConfigInput): PermissionConfig {
  const parsed = permissionConfigSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  // Report a malformed rule with its index, position and reason rather than as a bare zod issue.
  const rules: unknown[] = Array.isArray(input.rules) ? input.rules : [];
  for (const [index, rule] of rules.entries()) {
    const text = (rule as { tool?: unknown } | null)?.tool;
    if (typeof text === 'string' && text !== '') parseRuleOrThrow(text, `rules[${index}]`);
  }
  throw new AwakenError(
    'invalid_config',
    `invalid permission config: ${formatZodIssues(parsed.error.issues)}`,
  );
}

/**
 * Validates and compiles a permission configuration. Every rule is parsed now: an invalid rule throws
 * `AwakenError('invalid_config')` naming the rule (`rules[i]`), the position and the reason, so a bad
 * rule is never silently skipped.
 */
export function createPermissionPolicy(input: PermissionConfigInput = {}): PermissionPolicy {
  const config = parseConfig(input);
  const compiledRules = config.rules.map((rule, index) => compile(rule, 'rule', index));
  const primaryArguments: PrimaryArgumentPaths = compilePrimaryArguments(config.primaryArguments);

  const byExactName = new Map<string, CompiledRule[]>();
  const patternRules: CompiledRule[] = [];
  for (const compiled of compiledRules) {
    if (compiled.rule.tool.kind !== 'exact') patternRules.push(compiled);
    else
      byExactName.set(compiled.rule.tool.name, [
        ...(byExactName.get(compiled.rule.tool.name) ?? []),
        compiled,
      ]);
  }

  // Run-time rules come from state as text; parse each distinct one once.
  const runtimeCache = new Map<string, CompiledRule>();
  function compileCached(rule: PermissionRuleConfig): CompiledRule {
    const key = `${rule.behavior}\u0000${rule.tool}`;
    let compiled = runtimeCache.get(key);
    if (compiled === undefined) {
      compiled = compile(rule, 'override', 0);
      runtimeCache.set(key, compiled);
    }
    return compiled;
  }
  function compiledOverrides(overrides: readonly PermissionRuleConfig[] | undefined): CompiledRule[] {
    if (overrides === undefined || overrides.length === 0) return [];
    return overrides.map((override, index) => ({
      ...compileCached(override),
      order: compiledRules.length + index,
    }));
  }

  function evaluate(call: PermissionCall, runtimeRules: PermissionRuntimeRules = {}): PermissionDecision {
    const best: Partial<Record<PermissionBehavior, { compiled: CompiledRule; undetermined: boolean }>> = {};
    const consider = (compiled: CompiledRule): void => {
      const match = matchRule(compiled.rule, call, primaryArguments);
      if (match === 'no_match' || (match === 'undetermined' && compiled.behavior === 'allow')) return;
      const current = best[compiled.behavior];
      const order =
        current === undefined ? 1 : compareSpecificity(compiled.specificity, current.compiled.specificity);
      if (current === undefined || order > 0 || (order === 0 && compiled.order < current.compiled.order))
        best[compiled.behavior] = { compiled, undetermined: match === 'undetermined' };
    };
    for (const compiled of byExactName.get(call.name) ?? []) consider(compiled);
    for (const compiled of patternRules) consider(compiled);
    for (const compiled of compiledOverrides(runtimeRules.overrides)) consider(compiled);

    for (const behavior of ['deny', 'ask', 'allow'] as const) {
      const winner = best[behavior];
      if (winner === undefined) continue;
      const decision: PermissionDecision = {
        behavior,
        source: winner.compiled.source,
        rule: winner.compiled.rule.text,
        reason: reasonFor(behavior, winner.compiled, winner.undetermined),
      };
      return behavior === 'ask' ? applyGrants(decision, call, runtimeRules.grants) : decision;
    }
    const fallback: PermissionDecision = {
      behavior: config.defaultBehavior,
      source: 'default',
      reason: `no permission rule matches ${JSON.stringify(call.name)}; the default is ${config.defaultBehavior}`,
    };
    return fallback.behavior === 'ask' ? applyGrants(fallback, call, runtimeRules.grants) : fallback;
  }

  function applyGrants(
    decision: PermissionDecision,
    call: PermissionCall,
    grants: readonly string[] | undefined,
  ): PermissionDecision {
    for (const grant of grants ?? []) {
      const compiled = compileCached({ tool: grant, behavior: 'allow' });
      if (matchRule(compiled.rule, call, primaryArguments) !== 'match') continue;
      return {
        behavior: 'allow',
        source: 'remembered',
        rule: grant,
        reason: `allowed by a remembered approval for ${JSON.stringify(grant)}`,
      };
    }
    return decision;
  }

  function isDeniedUnconditionally(toolName: string, runtimeRules: PermissionRuntimeRules = {}): boolean {
    const candidates = [
      ...(byExactName.get(toolName) ?? []),
      ...patternRules,
      ...compiledOverrides(runtimeRules.overrides),
    ].filter((compiled) => matchToolName(compiled.rule.tool, toolName));
    if (candidates.some((compiled) => compiled.behavior === 'deny' && compiled.rule.arguments.kind === 'any'))
      return true;
    return config.defaultBehavior === 'deny' && candidates.every((compiled) => compiled.behavior === 'deny');
  }

  return { config, evaluate, isDeniedUnconditionally };
}
