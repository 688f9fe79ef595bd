import { assertNever } from '@awaken/contract';
import type { PermissionRule } from '../rule-ast';
import { globLiteralLength } from './compile-glob';

const TOOL_KIND_RANK = { exact: 3, regex: 2, glob: 1 } as const;

/**
 * How specific a rule is, compared lexicographically (higher is more specific):
 * 1. tool pattern kind: exact name > regex > glob;
 * 2. number of argument conditions (a primary-argument glob counts as one; `Tool`/`Tool(*)` as none);
 * 3. number of literal characters in the tool pattern and argument patterns.
 * Ties go to the rule declared first.
 */
export function ruleSpecificity(rule: PermissionRule): [number, number, number] {
  const tool = rule.tool;
  const toolLiteral =
    tool.kind === 'exact' ? tool.name.length : tool.kind === 'glob' ? globLiteralLength(tool.source) : 0;
  const args = rule.arguments;
  switch (args.kind) {
    case 'any':
      return [TOOL_KIND_RANK[tool.kind], 0, toolLiteral];
    case 'primary':
      return [TOOL_KIND_RANK[tool.kind], 1, toolLiteral + globLiteralLength(args.source)];
    case 'conditions': {
      let literal = toolLiteral;
      for (const condition of args.conditions)
        literal +=
          condition.kind === 'equals' ? String(condition.value).length : globLiteralLength(condition.source);
      return [TOOL_KIND_RANK[tool.kind], args.conditions.length, literal];
    }
    default:
      return assertNever(args, 'argument pattern');
  }
}

/** Positive when `a` is more specific than `b`. */
export function compareSpecificity(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < a.length; index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
