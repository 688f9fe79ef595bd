import { AwakenError } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { parseRule, parseRuleOrThrow } from './parse-rule';
import type { FieldCondition, PermissionRule } from './rule-ast';

function parsed(text: string): PermissionRule {
  const result = parseRule(text);
  if (!result.ok) throw new Error(`expected ${text} to parse: ${result.error.message}`);
  return result.rule;
}

function failure(text: string): { position: number; reason: string } {
  const result = parseRule(text);
  if (result.ok) throw new Error(`expected ${text} to be rejected`);
  return { position: result.error.position, reason: result.error.reason };
}

function conditionsOf(text: string): FieldCondition[] {
  const args = parsed(text).arguments;
  if (args.kind !== 'conditions') throw new Error(`expected conditions, got ${args.kind}`);
  return args.conditions;
}

describe('parseRule: tool patterns', () => {
  it('reads a bare name as an exact tool name with any arguments', () => {
    expect(parsed('Bash')).toMatchObject({
      tool: { kind: 'exact', name: 'Bash' },
      arguments: { kind: 'any' },
    });
  });

  it('reads a name with * or ? as a glob', () => {
    const rule = parsed('mcp__github__*');
    expect(rule.tool.kind).toBe('glob');
    expect(rule.tool.kind === 'glob' && rule.tool.regex.test('mcp__github__create_issue')).toBe(true);
  });

  it('reads /.../ as a regex anchored to the whole tool name', () => {
    const rule = parsed('/mcp__(gh|gl)__.*/');
    if (rule.tool.kind !== 'regex') throw new Error('expected regex');
    expect(rule.tool.regex.test('mcp__gh__x')).toBe(true);
    expect(rule.tool.regex.test('xmcp__gh__x')).toBe(false);
  });

  it('accepts regex flags i, m, s, u and an escaped slash', () => {
    const rule = parsed('/fs\\/read/i');
    if (rule.tool.kind !== 'regex') throw new Error('expected regex');
    expect(rule.tool.regex.test('FS/READ')).toBe(true);
  });

  it('tolerates surrounding whitespace', () => {
    expect(parsed('  Bash  ').tool).toEqual({ kind: 'exact', name: 'Bash' });
  });
});

describe('parseRule: argument forms', () => {
  it('reads Tool(*) as any arguments', () => {
    expect(parsed('Bash(*)').arguments).toEqual({ kind: 'any' });
    expect(parsed('Bash( * )').arguments).toEqual({ kind: 'any' });
  });

  it('reads free text as a glob on the primary argument', () => {
    expect(parsed('Bash(npm *)').arguments).toMatchObject({ kind: 'primary', source: 'npm *' });
    expect(parsed('Read(~/.ssh/**)').arguments).toMatchObject({ kind: 'primary', source: '~/.ssh/**' });
  });

  it('keeps parentheses inside a primary glob up to the final )', () => {
    expect(parsed('Bash(echo $(date) *)').arguments).toMatchObject({ source: 'echo $(date) *' });
  });

  it('reads a quoted primary glob, for text that would look like a condition', () => {
    expect(parsed('Bash("FOO=1 npm *")').arguments).toMatchObject({ kind: 'primary', source: 'FOO=1 npm *' });
  });

  it('keeps text whose first word is not followed by an operator as a primary glob', () => {
    expect(parsed('Bash(git commit -m "a = b")').arguments).toMatchObject({
      kind: 'primary',
      source: 'git commit -m "a = b"',
    });
  });

  it('refuses an unquoted value after a word and an operator, suggesting quotes', () => {
    const error = failure('Bash(ls ~/tmp)');
    expect(error.position).toBe(9);
    expect(error.reason).toMatch(/quote the whole pattern/);
  });

  it('reads every condition operator', () => {
    const operators = conditionsOf('T(a ~ "x*", b = "y", c =~ "^z", d !~ "w", e != 3, f !=~ /q/i)').map(
      (condition) => [condition.pathText, condition.kind, condition.negated],
    );
    expect(operators).toEqual([
      ['a', 'glob', false],
      ['b', 'equals', false],
      ['c', 'regex', false],
      ['d', 'glob', true],
      ['e', 'equals', true],
      ['f', 'regex', true],
    ]);
  });

  it('reads nested paths, indexes, [*] and quoted keys', () => {
    const [condition] = conditionsOf('Edit(files[*].meta["odd key"][0] ~ "src/**")');
    expect(condition?.path).toEqual([
      { kind: 'property', name: 'files' },
      { kind: 'wildcard' },
      { kind: 'property', name: 'meta' },
      { kind: 'property', name: 'odd key' },
      { kind: 'index', index: 0 },
    ]);
  });

  it('reads a path that starts with a quoted key as a condition, not as a primary glob', () => {
    const [condition] = conditionsOf('Deploy(["target env"] = "prod")');
    expect(condition).toMatchObject({
      kind: 'equals',
      path: [{ kind: 'property', name: 'target env' }],
      value: 'prod',
    });
  });

  it('reads a field name with non-ASCII letters as a condition, not as a primary glob', () => {
    const [condition] = conditionsOf('Write(fichier_été ~ "src/**")');
    expect(condition).toMatchObject({ kind: 'glob', path: [{ kind: 'property', name: 'fichier_été' }] });
  });

  it('reads JSON literals after = and !=', () => {
    const values = conditionsOf("T(a = 1.5, b = -2, c = true, d = false, e = null, f = 's')").map(
      (condition) => (condition.kind === 'equals' ? condition.value : undefined),
    );
    expect(values).toEqual([1.5, -2, true, false, null, 's']);
  });

  it('decodes escapes in quoted values', () => {
    const [condition] = conditionsOf('T(a = "q\\"uote \\\\ tab\\t nl\\n \\u00e9 \\\'")');
    expect(condition?.kind === 'equals' && condition.value).toBe('q"uote \\ tab\t nl\n é \'');
  });

  it('passes glob and regex escapes through to the pattern', () => {
    const [glob, regex] = conditionsOf('T(a ~ "literal\\*star", b =~ "\\d+\\.txt")');
    expect(glob?.kind === 'glob' && glob.regex.test('literal*star')).toBe(true);
    expect(glob?.kind === 'glob' && glob.regex.test('literalXstar')).toBe(false);
    expect(regex?.kind === 'regex' && regex.regex.source).toBe('\\d+\\.txt');
  });
});

describe('parseRule: malformed rules', () => {
  const cases: Array<[string, number, RegExp]> = [
    ['', 0, /empty rule/],
    ['   ', 3, /empty rule/],
    ['Bash(npm', 8, /expected '\)' at end of rule/],
    ['Bash()', 5, /empty argument list/],
    ['Bash(x) y', 9, /expected '\)' at end of rule/],
    ['Bash x', 5, /expected '\(' or end of rule/],
    ['(foo)', 0, /expected a tool name/],
    ['/mcp__(/', 0, /invalid regular expression/],
    ['/abc', 0, /unterminated regular expression/],
    ['/abc/g', 5, /flag 'g' is not allowed/],
    ['Edit(file ~ src/**)', 12, /expected a glob as a quoted string/],
    ['Edit(mode = write)', 12, /quote condition values/],
    ['Edit(path ~ "abc)', 12, /unterminated string/],
    ['Edit(path ~ "a\\qb")', 14, /unknown escape sequence '\\q'/],
    ['Edit(path ~ "a", )', 17, /expected a field name/],
    ['Edit(path ~ "a" mode = "b")', 16, /expected ',' or '\)'/],
    ['Edit(path =~ "(unclosed")', 13, /invalid regular expression/],
    ['Edit(items[x] ~ "a")', 11, /expected an index/],
    ['Edit(a = "\\u12")', 10, /four hex digits/],
  ];

  it.each(cases)('rejects %j at position %i', (text, position, reason) => {
    const error = failure(text);
    expect(error.reason).toMatch(reason);
    expect(error.position).toBe(position);
  });

  it('shows the rule with a caret under the position', () => {
    const result = parseRule('Bash(npm');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain('Bash(npm\n          ^');
  });

  it('parseRuleOrThrow raises invalid_config naming the rule, position and reason', () => {
    let caught: unknown;
    try {
      parseRuleOrThrow('Edit(mode = write)', 'rules[2]');
    } catch (error) {
      caught = error;
    }
    expect(AwakenError.hasCode(caught, 'invalid_config')).toBe(true);
    const error = caught as AwakenError;
    expect(error.message).toContain('rules[2]');
    expect(error.message).toContain('"Edit(mode = write)"');
    expect(error.details).toMatchObject({ rule: 'Edit(mode = write)', position: 12 });
  });
});
