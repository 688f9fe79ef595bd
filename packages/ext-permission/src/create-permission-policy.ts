import {
  type CompiledRule,
  compilePrimaryArguments,
  compileRule,
  parsePermissionConfig,
} from './internal/compile-rule';
import {
  type Candidate,
  type RuleGroups,
  byPrecedence,
  createRuleIndex,
  firstMatch,
  groupRules,
} from './internal/rule-index';
import type { PrimaryLookup } from './internal/compile-matcher';
import { PrimaryArgumentCache, type PrimaryArgumentPaths } from './match-rule';
import type {
  PermissionBehavior,
  PermissionConfig,
  PermissionConfigInput,
  PermissionRuleConfig,
} from './permission-config';

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
  /** Four-eyes: the `ask` rule that decided requires an approver other than the run's starter. */
  requireDistinctApprover?: true;
  /** The deciding `ask` rule's `approvalTimeout` (ms), when it sets one. */
  approvalTimeout?: number;
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
  /**
   * What the rules in shadow mode (`shadow: true` on a rule or on the whole configuration) would
   * have decided, when that differs from what `evaluate` enforces: the decision with every shadow
   * rule turned on, next to the enforced behaviour. `undefined` when no rule is in shadow or the
   * shadow rules change nothing for this call. Never changes what `evaluate` says.
   */
  evaluateShadow(call: PermissionCall, runtimeRules?: PermissionRuntimeRules): ShadowVerdict | undefined;
}

/** A verdict of the rules in shadow mode that was not enforced. */
export interface ShadowVerdict {
  /** What the call would have got with the shadow rules enforced. */
  behavior: PermissionBehavior;
  /** The rule that would have decided (absent when the default would have). */
  rule?: string;
  reason: string;
  /** What the call got. */
  enforced: PermissionBehavior;
}

function reasonFor(behavior: PermissionBehavior, winner: Candidate): string {
  const what = behavior === 'deny' ? 'denied by' : behavior === 'ask' ? 'approval required by' : 'allowed by';
  const kind = winner.compiled.source === 'override' ? 'run override rule' : 'permission rule';
  const note = winner.undetermined
    ? ' (the call has no single primary argument, so the stricter rule applies)'
    : '';
  return `${what} ${kind} \`${winner.compiled.rule.text}\`${note}`;
}

function better(a: Candidate | undefined, b: Candidate | undefined): Candidate | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return byPrecedence(a.compiled, b.compiled) <= 0 ? a : b;
}

const BEHAVIORS_BY_PRECEDENCE = ['deny', 'ask', 'allow'] as const;

/**
 * Validates and compiles a permission configuration. Every rule is parsed now: an invalid rule throws
 * `AwakenError('invalid_config')` naming the rule (`rules[i]`), the position and the reason, so a bad
 * rule is never silently skipped.
 */
export function createPermissionPolicy(input: PermissionConfigInput = {}): PermissionPolicy {
  const config = parsePermissionConfig(input);
  const compiledRules = config.rules.map((rule, index) => compileRule(rule, 'rule', index));
  const primaryArguments: PrimaryArgumentPaths = compilePrimaryArguments(config.primaryArguments);
  // Run-time rules come from state as text; parse each distinct one once (shared by both views).
  const runtimeCache = new Map<string, CompiledRule>();
  const judge = (rules: CompiledRule[], defaultBehavior: PermissionBehavior) =>
    createJudge({ rules, defaultBehavior, primaryArguments, runtimeCache, ruleCount: compiledRules.length });
  const hasShadow = config.shadow || config.rules.some((rule) => rule.shadow === true);
  // what is enforced: the rules not in shadow; a rule set in shadow enforces nothing (allow)
  const enforced = judge(
    config.shadow ? [] : compiledRules.filter((_, index) => config.rules[index]?.shadow !== true),
    config.shadow ? 'allow' : config.defaultBehavior,
  );
  // what would be enforced with every shadow rule turned on
  const shadowed = hasShadow ? judge(compiledRules, config.defaultBehavior) : undefined;

  function evaluateShadow(
    call: PermissionCall,
    runtimeRules: PermissionRuntimeRules = {},
  ): ShadowVerdict | undefined {
    if (!shadowed) return undefined;
    const would = shadowed.evaluate(call, runtimeRules);
    const is = enforced.evaluate(call, runtimeRules);
    if (would.behavior === is.behavior) return undefined;
    return {
      behavior: would.behavior,
      ...(would.rule === undefined ? {} : { rule: would.rule }),
      reason: would.reason,
      enforced: is.behavior,
    };
  }

  return {
    config,
    evaluate: enforced.evaluate,
    isDeniedUnconditionally: enforced.isDeniedUnconditionally,
    evaluateShadow,
  };
}

/** The evaluation of one set of configured rules (plus the run's overrides and grants). */
function createJudge(options: {
  rules: CompiledRule[];
  defaultBehavior: PermissionBehavior;
  primaryArguments: PrimaryArgumentPaths;
  runtimeCache: Map<string, CompiledRule>;
  /** How many rules are configured: overrides come after all of them in declaration order. */
  ruleCount: number;
}): Pick<PermissionPolicy, 'evaluate' | 'isDeniedUnconditionally'> {
  const { rules: compiledRules, primaryArguments, runtimeCache } = options;
  const config = { defaultBehavior: options.defaultBehavior };
  const rulesFor = createRuleIndex(compiledRules);

  function compileCached(rule: PermissionRuleConfig): CompiledRule {
    const key = `${rule.behavior}\u0000${rule.requireDistinctApprover === true}\u0000${rule.tool}\u0000${rule.approvalTimeout ?? ''}`;
    let compiled = runtimeCache.get(key);
    if (compiled === undefined) {
      compiled = compileRule(rule, 'override', 0);
      runtimeCache.set(key, compiled);
    }
    return compiled;
  }
  function overridesFor(toolName: string, overrides: readonly PermissionRuleConfig[] | undefined) {
    if (overrides === undefined || overrides.length === 0) return undefined;
    const compiled = overrides.map((override, index) => ({
      ...compileCached(override),
      order: options.ruleCount + index,
    }));
    return groupRules(compiled.filter((rule) => rule.matchTool(toolName)));
  }

  function evaluate(call: PermissionCall, runtimeRules: PermissionRuntimeRules = {}): PermissionDecision {
    const primary = new PrimaryArgumentCache(call.name, call.arguments, primaryArguments);
    const configured = rulesFor(call.name);
    const overrides = overridesFor(call.name, runtimeRules.overrides);
    for (const behavior of BEHAVIORS_BY_PRECEDENCE) {
      const winner = better(
        firstMatch(configured[behavior], behavior, call.arguments, primary),
        overrides === undefined
          ? undefined
          : firstMatch(overrides[behavior], behavior, call.arguments, primary),
      );
      if (winner === undefined) continue;
      const decision: PermissionDecision = {
        behavior,
        source: winner.compiled.source,
        rule: winner.compiled.rule.text,
        reason: reasonFor(behavior, winner),
        ...(winner.compiled.requireDistinctApprover ? { requireDistinctApprover: true as const } : {}),
        ...(behavior === 'ask' && winner.compiled.approvalTimeout !== undefined
          ? { approvalTimeout: winner.compiled.approvalTimeout }
          : {}),
      };
      // a four-eyes ask is asked every time: a remembered approval never stands in for the other eyes
      if (behavior !== 'ask' || decision.requireDistinctApprover) return decision;
      return applyGrants(decision, call, primary, runtimeRules.grants);
    }
    const fallback: PermissionDecision = {
      behavior: config.defaultBehavior,
      source: 'default',
      reason: `no permission rule matches tool \`${call.name}\`; the default is ${config.defaultBehavior}`,
    };
    return fallback.behavior === 'ask' ? applyGrants(fallback, call, primary, runtimeRules.grants) : fallback;
  }

  function applyGrants(
    decision: PermissionDecision,
    call: PermissionCall,
    primary: PrimaryLookup,
    grants: readonly string[] | undefined,
  ): PermissionDecision {
    for (const grant of grants ?? []) {
      const compiled = compileCached({ tool: grant, behavior: 'allow' });
      if (!compiled.matchTool(call.name) || compiled.matchArguments(call.arguments, primary) !== 'match')
        continue;
      return {
        behavior: 'allow',
        source: 'remembered',
        rule: grant,
        reason: `allowed by a remembered approval for \`${grant}\``,
      };
    }
    return decision;
  }

  function isDeniedUnconditionally(toolName: string, runtimeRules: PermissionRuntimeRules = {}): boolean {
    const groups: RuleGroups[] = [rulesFor(toolName)];
    const overrides = overridesFor(toolName, runtimeRules.overrides);
    if (overrides !== undefined) groups.push(overrides);
    if (groups.some((group) => group.deny.some((rule) => rule.rule.arguments.kind === 'any'))) return true;
    return (
      config.defaultBehavior === 'deny' &&
      groups.every((group) => group.ask.length === 0 && group.allow.length === 0)
    );
  }

  return { evaluate, isDeniedUnconditionally };
}
