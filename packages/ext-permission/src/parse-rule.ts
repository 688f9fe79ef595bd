import { AwakenError } from '@awaken/contract';
import { compileGlob, hasGlobWildcard } from './internal/compile-glob';
import { looksLikeCondition, readConditions } from './internal/parse-conditions';
import { RuleScanner, RuleSyntaxFailure } from './internal/rule-scanner';
import type { ArgumentPattern, PermissionRule, RuleParseResult, ToolPattern } from './rule-ast';

const NAME_STOP = /[\s()"',]/;

function readToolPattern(scanner: RuleScanner): ToolPattern {
  if (scanner.peek() === '/') return { kind: 'regex', ...scanner.readRegexLiteral(true) };
  const start = scanner.position;
  while (!scanner.atEnd && !NAME_STOP.test(scanner.peek()!)) scanner.position++;
  const name = scanner.text.slice(start, scanner.position);
  if (name === '') scanner.fail(`expected a tool name, a glob or a /regex/, found ${scanner.describeHere()}`);
  if (!hasGlobWildcard(name)) return { kind: 'exact', name: name.replace(/\\(.)/g, '$1') };
  return { kind: 'glob', source: name, regex: compileGlob(name) };
}

/** Parses what is between `(` and the rule's final `)` (exclusive `end`). */
function readArguments(scanner: RuleScanner, end: number): ArgumentPattern {
  scanner.skipWhitespace();
  if (scanner.position >= end) scanner.fail('empty argument list (write Tool or Tool(*) for any arguments)');
  if (looksLikeCondition(scanner)) {
    const conditions = readConditions(scanner);
    if (scanner.position !== end)
      scanner.fail(`expected ',' or ')' after a condition, found ${scanner.describeHere()}`);
    return { kind: 'conditions', conditions };
  }
  if (scanner.peek() === '"' || scanner.peek() === "'") {
    const glob = scanner.readQuotedString();
    scanner.skipWhitespace();
    if (scanner.position !== end)
      scanner.fail(`expected ')' after the quoted pattern, found ${scanner.describeHere()}`);
    return { kind: 'primary', source: glob, regex: compileGlob(glob) };
  }
  const raw = scanner.text.slice(scanner.position, end).trim();
  scanner.position = end;
  if (raw === '*') return { kind: 'any' };
  return { kind: 'primary', source: raw, regex: compileGlob(raw) };
}

function parseOrThrow(text: string): PermissionRule {
  const scanner = new RuleScanner(text);
  scanner.skipWhitespace();
  if (scanner.atEnd) scanner.fail('empty rule');
  const tool = readToolPattern(scanner);
  scanner.skipWhitespace();
  if (scanner.atEnd) return { text, tool, arguments: { kind: 'any' } };
  if (scanner.peek() !== '(')
    scanner.fail(`expected '(' or end of rule after the tool pattern, found ${scanner.describeHere()}`);
  const open = scanner.position;
  const trimmedEnd = text.trimEnd().length;
  if (text[trimmedEnd - 1] !== ')' || trimmedEnd - 1 === open)
    scanner.fail(`expected ')' at end of rule to close '(' at position ${open}`, trimmedEnd);
  scanner.position++;
  const args = readArguments(scanner, trimmedEnd - 1);
  return { text, tool, arguments: args };
}

function describe(text: string, position: number, reason: string): string {
  return `${reason} (position ${position})\n  ${text}\n  ${' '.repeat(position)}^`;
}

/**
 * Parses one permission rule such as `Bash`, `mcp__github__*`, `/mcp__(gh|gl)__.*\/`, `Bash(npm *)`
 * or `Edit(file.path ~ "src/**", mode = "write")`. Never throws: a malformed rule yields the 0-based
 * position of the problem and the reason. Regexes are compiled here, so an invalid one is a parse error.
 */
export function parseRule(text: string): RuleParseResult {
  try {
    return { ok: true, rule: parseOrThrow(text) };
  } catch (error) {
    if (!(error instanceof RuleSyntaxFailure)) throw error;
    const { position, reason } = error;
    return { ok: false, error: { position, reason, message: describe(text, position, reason) } };
  }
}

/**
 * Parses a rule or throws `AwakenError('invalid_config')` whose message names the rule (and `label`,
 * e.g. `rules[3]`), the position and the reason; `details` carries them as fields.
 */
export function parseRuleOrThrow(text: string, label = 'permission rule'): PermissionRule {
  const result = parseRule(text);
  if (result.ok) return result.rule;
  const { position, reason, message } = result.error;
  throw new AwakenError('invalid_config', `invalid ${label} ${JSON.stringify(text)}: ${message}`, {
    details: { rule: text, label, position, reason },
  });
}
