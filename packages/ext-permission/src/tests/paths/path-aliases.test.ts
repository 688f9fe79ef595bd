import { describe, expect, it } from 'vitest';
import { createPermissionPolicy } from '../../create-permission-policy';
import { parseRuleOrThrow } from '../../parse-rule';
import { matchRule } from '../../match-rule';

/** Spellings of a path under `/etc` (or `/etc` itself) that a literal match of `/etc/**` misses. */
export const ETC_ALIASES = [
  '/tmp/../etc/passwd',
  '//etc/passwd',
  '/./etc/passwd',
  '/etc',
  '///etc//passwd',
  '/../etc/passwd',
  '/../../../../etc/shadow',
  '/tmp/./../etc',
  '/tmp/x/..//../etc/hosts',
  '/__proto__/../etc/passwd',
  '/constructor/../etc/passwd',
  '../etc/passwd',
  'etc/passwd',
] as const;

/** Not under `/etc` once canonical: these stay asked (the default), never denied by `/etc/**`. */
const NOT_ETC = [
  '/tmp/report.txt',
  '/etcetera/passwd',
  '/tmp/etc/passwd',
  // not decoded: a file system never decodes percent escapes, so this names a directory `%2e%2e`
  '/tmp/%2e%2e/etc/passwd',
  '/tmp/..%2fetc/passwd',
  // POSIX: a backslash is an ordinary character of a file name
  '/tmp\\..\\etc\\passwd',
  'notes.txt',
] as const;

function policy(rules: Array<{ tool: string; behavior: 'allow' | 'ask' | 'deny' }>) {
  return createPermissionPolicy({ defaultBehavior: 'ask', rules });
}

describe('path aliases against a deny rule on /etc/**', () => {
  const primary = policy([{ tool: 'delete_file(/etc/**)', behavior: 'deny' }]);
  const condition = policy([{ tool: 'Edit(file.path ~ "/etc/**")', behavior: 'deny' }]);

  it.each(ETC_ALIASES)('denies delete_file %j (primary glob)', (path) => {
    expect(primary.evaluate({ name: 'delete_file', arguments: { path } })).toMatchObject({
      behavior: 'deny',
      rule: 'delete_file(/etc/**)',
    });
  });

  it.each(ETC_ALIASES)('denies Edit %j (named condition)', (path) => {
    expect(condition.evaluate({ name: 'Edit', arguments: { file: { path } } }).behavior).toBe('deny');
  });

  it.each(ETC_ALIASES)('matchRule reports %j as a match', (path) => {
    const rule = parseRuleOrThrow('delete_file(/etc/**)');
    expect(matchRule(rule, { name: 'delete_file', arguments: { path } })).toBe('match');
  });

  it.each(NOT_ETC)('does not deny %j', (path) => {
    expect(primary.evaluate({ name: 'delete_file', arguments: { path } }).behavior).toBe('ask');
  });

  it('denies a path holding a NUL byte (no file system accepts one; the stricter outcome applies)', () => {
    for (const path of ['/tmp/x\u0000/../../etc/passwd', '/tmp/ok.txt\u0000'])
      expect(primary.evaluate({ name: 'delete_file', arguments: { path } }).behavior).toBe('deny');
  });

  it('judges an own __proto__ key of parsed JSON as data, not as the prototype', () => {
    const args = JSON.parse('{"__proto__": {"path": "/tmp/x"}, "path": "/tmp/../etc/passwd"}');
    expect(primary.evaluate({ name: 'delete_file', arguments: args }).behavior).toBe('deny');
    const nested = JSON.parse('{"file": {"__proto__": {"x": 1}, "path": "//etc/passwd"}}');
    expect(condition.evaluate({ name: 'Edit', arguments: nested }).behavior).toBe('deny');
  });

  it('keeps a negated path condition strict: a path that leaves the tree by `..` is outside it', () => {
    const outside = policy([{ tool: 'Edit(file.path !~ "/home/me/**")', behavior: 'deny' }]);
    const judge = (path: string) =>
      outside.evaluate({ name: 'Edit', arguments: { file: { path } } }).behavior;
    expect(judge('/home/me/notes.txt')).toBe('ask');
    expect(judge('/home/me')).toBe('ask');
    expect(judge('/home/me/../../etc/passwd')).toBe('deny');
    expect(judge('/home/me/x\u0000')).toBe('deny');
  });
});

describe('path aliases against an allow rule', () => {
  const home = policy([{ tool: 'delete_file(/home/me/**)', behavior: 'allow' }]);
  const judge = (path: string) => home.evaluate({ name: 'delete_file', arguments: { path } }).behavior;

  it('allows paths inside the tree, in any spelling that stays inside', () => {
    expect(judge('/home/me/a.txt')).toBe('allow');
    expect(judge('/home/me/sub/../a.txt')).toBe('allow');
    expect(judge('/home/me')).toBe('allow');
  });

  it('does not allow a spelling that leaves the tree, nor a NUL byte', () => {
    expect(judge('/home/me/../../etc/passwd')).toBe('ask');
    expect(judge('/home/me/..')).toBe('ask');
    expect(judge('/home/me/a\u0000')).toBe('ask');
  });
});

describe('globs stay linear on long inputs', () => {
  it('matches several stars against 200 000 characters in well under a second', () => {
    const rules = [
      { tool: 'bash(**a**a**a**b)', behavior: 'deny' as const },
      { tool: 'bash(command ~ "*a*a*a*b")', behavior: 'deny' as const },
      { tool: 'Edit(path ~ "/**/**/**/x")', behavior: 'deny' as const },
      { tool: 'Edit(path ~ "**/**/**/x")', behavior: 'deny' as const },
    ];
    const check = policy(rules);
    const started = performance.now();
    expect(check.evaluate({ name: 'bash', arguments: { command: 'a'.repeat(200_000) } }).behavior).toBe(
      'ask',
    );
    expect(check.evaluate({ name: 'Edit', arguments: { path: '/'.repeat(200_000) } }).behavior).toBe('ask');
    expect(check.evaluate({ name: 'Edit', arguments: { path: `/${'a/..'.repeat(50_000)}` } }).behavior).toBe(
      'ask',
    );
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
