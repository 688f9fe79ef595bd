import { AwakenError, formatZodIssues } from '@awaken/contract';
import { parseRuleOrThrow } from '../parse-rule';
import {
  type PermissionBehavior,
  type PermissionConfig,
  type PermissionConfigInput,
  type PermissionRuleConfig,
  permissionConfigSchema,
} from '../permission-config';
import type { PathSegment, PermissionRule } from '../rule-ast';
import {
  type ArgumentMatch,
  type PrimaryLookup,
  compileArgumentMatcher,
  compileToolMatcher,
  pathReadingFor,
} from './compile-matcher';
import { readPath } from './parse-conditions';
import { RuleScanner, RuleSyntaxFailure } from './rule-scanner';
import { ruleSpecificity } from './specificity';

/** A rule ready to evaluate: parsed once, with matchers specialised for its patterns. */
export interface CompiledRule {
  rule: PermissionRule;
  behavior: PermissionBehavior;
  source: 'rule' | 'override';
  /** Declaration order; breaks specificity ties (lower first). */
  order: number;
  specificity: [number, number, number];
  /** Four-eyes: an ask of this rule needs an approver other than the run's starter. */
  requireDistinctApprover: boolean;
  matchTool(name: string): boolean;
  matchArguments(args: unknown, primary: PrimaryLookup): ArgumentMatch;
  /** How long (ms) an `ask` of this rule waits for an answer (`approvalTimeout` of the rule). */
  approvalTimeout?: number;
}

/** Parses and compiles one rule; throws `AwakenError('invalid_config')` when it is malformed. */
export function compileRule(
  config: PermissionRuleConfig,
  source: CompiledRule['source'],
  order: number,
): CompiledRule {
  const label = source === 'rule' ? `rules[${order}]` : 'override rule';
  const rule = parseRuleOrThrow(config.tool, label);
  return {
    rule,
    behavior: config.behavior,
    source,
    order,
    specificity: ruleSpecificity(rule),
    requireDistinctApprover: config.requireDistinctApprover === true,
    matchTool: compileToolMatcher(rule.tool),
    matchArguments: compileArgumentMatcher(rule.arguments, pathReadingFor(config.behavior)),
    ...(config.approvalTimeout === undefined ? {} : { approvalTimeout: config.approvalTimeout }),
  };
}

/** Parses `primaryArguments` paths; throws `AwakenError('invalid_config')` naming a malformed one. */
export function compilePrimaryArguments(paths: Record<string, string>): Map<string, PathSegment[]> {
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

/** Validates a configuration; a malformed rule is reported with its index, position and reason. */
export function parsePermissionConfig(input: PermissionConfigInput): PermissionConfig {
  const parsed = permissionConfigSchema.safeParse(input);
  if (parsed.success) return parsed.data;
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
