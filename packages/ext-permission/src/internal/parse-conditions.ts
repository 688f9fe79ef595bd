import type { ConditionOperator, FieldCondition, LiteralValue, PathSegment } from '../rule-ast';
import { compileGlob } from './compile-glob';
import { compileRegex, type RuleScanner } from './rule-scanner';

const IDENTIFIER_START = /[\p{L}_$]/u;
const IDENTIFIER_PART = /[\p{L}\p{M}\p{N}_$-]/u;
/** Longest first, so `!=~` is not read as `!=` followed by `~`. */
const OPERATORS: readonly ConditionOperator[] = ['!=~', '=~', '!~', '!=', '~', '='];

function readIdentifier(scanner: RuleScanner): string {
  const start = scanner.position;
  if (!IDENTIFIER_START.test(scanner.peek() ?? ''))
    scanner.fail(`expected a field name, found ${scanner.describeHere()}`);
  while (IDENTIFIER_PART.test(scanner.peek() ?? '')) scanner.position++;
  return scanner.text.slice(start, scanner.position);
}

function readBracket(scanner: RuleScanner): PathSegment {
  scanner.expect('[');
  let segment: PathSegment;
  if (scanner.peek() === '*') {
    scanner.position++;
    segment = { kind: 'wildcard' };
  } else if (scanner.peek() === '"' || scanner.peek() === "'") {
    segment = { kind: 'property', name: scanner.readQuotedString() };
  } else {
    const start = scanner.position;
    while (/[0-9]/.test(scanner.peek() ?? '')) scanner.position++;
    if (start === scanner.position)
      scanner.fail(`expected an index, '*' or a quoted key inside [ ], found ${scanner.describeHere()}`);
    segment = { kind: 'index', index: Number(scanner.text.slice(start, scanner.position)) };
  }
  scanner.expect(']');
  return segment;
}

/** Reads a field path: `name`, `a.b`, `items[0]`, `items[*].name`, `["odd key"]`, `["odd key"].a`. */
export function readPath(scanner: RuleScanner): PathSegment[] {
  const segments: PathSegment[] = [
    scanner.peek() === '[' ? readBracket(scanner) : { kind: 'property', name: readIdentifier(scanner) },
  ];
  for (;;) {
    if (scanner.peek() === '.') {
      scanner.position++;
      segments.push({ kind: 'property', name: readIdentifier(scanner) });
    } else if (scanner.peek() === '[') {
      segments.push(readBracket(scanner));
    } else return segments;
  }
}

/** The operator at the cursor, or undefined. Does not move the cursor. */
export function peekOperator(scanner: RuleScanner): ConditionOperator | undefined {
  return OPERATORS.find((operator) => scanner.startsWith(operator));
}

/** A field name or `[`, then any path characters, then an operator. Deliberately loose: see below. */
const CONDITION_SHAPE =
  /^(?:[\p{L}_$]|\[)(?:[\p{L}\p{M}\p{N}_$.\-[\]*]|"[^"]*"|'[^']*')*\s*(?:!=~|=~|!~|!=|~|=)/u;

/**
 * True when the argument text at the cursor has the shape `path <operator>`, which selects the
 * named-condition form over the primary-argument glob. The shape is loose on purpose, so a mistyped
 * path (`items[x] ~ "a"`) is reported as an error by the condition parser rather than silently read
 * as a glob. Does not move the cursor.
 */
export function looksLikeCondition(scanner: RuleScanner): boolean {
  return CONDITION_SHAPE.test(scanner.text.slice(scanner.position));
}

const QUOTE_HINT =
  '(quote condition values; to glob the primary argument, quote the whole pattern: Tool("..."))';

function readLiteral(scanner: RuleScanner): LiteralValue {
  const peek = scanner.peek();
  if (peek === '"' || peek === "'") return scanner.readQuotedString();
  const match = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)(?![A-Za-z0-9_])/.exec(
    scanner.text.slice(scanner.position),
  );
  if (match === null)
    scanner.fail(
      `expected a quoted string, a number, true, false or null, found ${scanner.describeHere()} ${QUOTE_HINT}`,
    );
  scanner.position += match[0].length;
  const token = match[0];
  return token === 'true' ? true : token === 'false' ? false : token === 'null' ? null : Number(token);
}

/** Reads one `path <operator> value` condition. */
export function readCondition(scanner: RuleScanner): FieldCondition {
  const pathStart = scanner.position;
  const path = readPath(scanner);
  const pathText = scanner.text.slice(pathStart, scanner.position);
  scanner.skipWhitespace();
  const operator = peekOperator(scanner);
  if (operator === undefined)
    scanner.fail(
      `expected an operator (~ = =~ !~ != !=~) after '${pathText}', found ${scanner.describeHere()}`,
    );
  scanner.position += operator.length;
  scanner.skipWhitespace();
  const negated = operator.startsWith('!');
  const valueStart = scanner.position;
  if (operator === '=' || operator === '!=') {
    return { kind: 'equals', path, pathText, negated, value: readLiteral(scanner) };
  }
  if (operator === '=~' || operator === '!=~') {
    if (scanner.peek() === '/')
      return { kind: 'regex', path, pathText, negated, ...scanner.readRegexLiteral(false) };
    const pattern = readString(scanner, 'a regular expression');
    const regex = compileRegex(pattern, '', false, valueStart);
    return { kind: 'regex', path, pathText, negated, source: JSON.stringify(pattern), regex };
  }
  const glob = readString(scanner, 'a glob');
  return { kind: 'glob', path, pathText, negated, source: glob, regex: compileGlob(glob) };
}

function readString(scanner: RuleScanner, what: string): string {
  if (scanner.peek() !== '"' && scanner.peek() !== "'")
    scanner.fail(`expected ${what} as a quoted string, found ${scanner.describeHere()} ${QUOTE_HINT}`);
  return scanner.readQuotedString();
}

/** Reads `condition (, condition)*` up to (not including) the closing parenthesis. */
export function readConditions(scanner: RuleScanner): FieldCondition[] {
  const conditions: FieldCondition[] = [];
  for (;;) {
    scanner.skipWhitespace();
    conditions.push(readCondition(scanner));
    scanner.skipWhitespace();
    if (scanner.peek() !== ',') return conditions;
    scanner.position++;
  }
}
