import { describe, expect, it } from 'vitest';
import { readPath } from './internal/parse-conditions';
import { RuleScanner } from './internal/rule-scanner';
import { type PrimaryArgumentPaths, matchRule, resolvePrimaryArgument } from './match-rule';
import { parseRule } from './parse-rule';
import type { PermissionRule } from './rule-ast';

function rule(text: string): PermissionRule {
  const result = parseRule(text);
  if (!result.ok) throw new Error(result.error.message);
  return result.rule;
}

function matches(text: string, name: string, args: unknown, primary?: PrimaryArgumentPaths): string {
  return matchRule(rule(text), { name, arguments: args }, primary);
}

function paths(entries: Record<string, string>): PrimaryArgumentPaths {
  return new Map(Object.entries(entries).map(([tool, path]) => [tool, readPath(new RuleScanner(path))]));
}

describe('matchRule: tool names', () => {
  it('matches an exact name only exactly', () => {
    expect(matches('Bash', 'Bash', {})).toBe('match');
    expect(matches('Bash', 'BashX', {})).toBe('no_match');
    expect(matches('Bash', 'bash', {})).toBe('no_match');
  });

  it('matches a glob and a regex against the whole name', () => {
    expect(matches('mcp__github__*', 'mcp__github__create_issue', {})).toBe('match');
    expect(matches('mcp__github__*', 'mcp__gitlab__x', {})).toBe('no_match');
    expect(matches('/mcp__(gh|gl)__.*/', 'mcp__gl__merge', {})).toBe('match');
    expect(matches('/mcp__(gh|gl)__.*/', 'mcp__bb__merge', {})).toBe('no_match');
  });
});

describe('matchRule: globs', () => {
  it('lets * stop at / while ** crosses it', () => {
    expect(matches('Edit(path ~ "src/*")', 'Edit', { path: 'src/a.ts' })).toBe('match');
    expect(matches('Edit(path ~ "src/*")', 'Edit', { path: 'src/deep/a.ts' })).toBe('no_match');
    expect(matches('Edit(path ~ "src/**")', 'Edit', { path: 'src/deep/a.ts' })).toBe('match');
    expect(matches('Edit(path ~ "src/**")', 'Edit', { path: 'srcx/a.ts' })).toBe('no_match');
  });

  it('lets **/ match zero or more directories', () => {
    expect(matches('Edit(path ~ "**/*.ts")', 'Edit', { path: 'a.ts' })).toBe('match');
    expect(matches('Edit(path ~ "**/*.ts")', 'Edit', { path: 'a/b/c.ts' })).toBe('match');
    expect(matches('Edit(path ~ "**/*.ts")', 'Edit', { path: 'a/b/c.js' })).toBe('no_match');
  });

  it('treats ? as one character other than /', () => {
    expect(matches('T(p ~ "a?c")', 'T', { p: 'abc' })).toBe('match');
    expect(matches('T(p ~ "a?c")', 'T', { p: 'a/c' })).toBe('no_match');
  });

  it('treats ? as one character even outside the Basic Multilingual Plane', () => {
    expect(matches('T(p ~ "a?c")', 'T', { p: 'a😀c' })).toBe('match');
    expect(matches('T(p ~ "a??c")', 'T', { p: 'a😀c' })).toBe('no_match');
  });

  it('needs ** in a command glob to cover arguments that contain /', () => {
    expect(matches('Bash(rm *)', 'Bash', { command: 'rm -rf /tmp/x' })).toBe('no_match');
    expect(matches('Bash(rm **)', 'Bash', { command: 'rm -rf /tmp/x' })).toBe('match');
    expect(matches('Bash(npm *)', 'Bash', { command: 'npm test' })).toBe('match');
  });

  it('matches the whole value, including newlines under **', () => {
    expect(matches('Bash(echo **)', 'Bash', { command: 'echo a\nrm -rf /' })).toBe('match');
    expect(matches('Bash(echo *)', 'Bash', { command: 'xecho a' })).toBe('no_match');
  });
});

describe('matchRule: conditions', () => {
  it('does not match a positive condition on a missing field path', () => {
    expect(matches('Edit(file.path ~ "**")', 'Edit', { file: {} })).toBe('no_match');
    expect(matches('Edit(file.path ~ "**")', 'Edit', { file: 'x' })).toBe('no_match');
    expect(matches('Edit(file.path ~ "**")', 'Edit', 'raw text')).toBe('no_match');
  });

  it('matches a negated condition on a missing field path', () => {
    expect(matches('Edit(mode != "write")', 'Edit', {})).toBe('match');
    expect(matches('Edit(mode != "write")', 'Edit', { mode: 'write' })).toBe('no_match');
  });

  it('follows nested paths and array indexes', () => {
    const args = { file: { path: 'src/a.ts' }, items: ['x', 'y'] };
    expect(matches('Edit(file.path ~ "src/**")', 'Edit', args)).toBe('match');
    expect(matches('Edit(items[1] = "y")', 'Edit', args)).toBe('match');
    expect(matches('Edit(items[2] = "y")', 'Edit', args)).toBe('no_match');
  });

  it('matches [*] when any of several values matches', () => {
    const args = { files: [{ path: 'docs/a.md' }, { path: 'src/b.ts' }] };
    expect(matches('Edit(files[*].path ~ "src/**")', 'Edit', args)).toBe('match');
    expect(matches('Edit(files[*].path ~ "lib/**")', 'Edit', args)).toBe('no_match');
  });

  it('matches a negated [*] condition when any value fails the test', () => {
    const mixed = { files: ['src/a.ts', '/etc/passwd'] };
    const inside = { files: ['src/a.ts', 'src/b.ts'] };
    expect(matches('Edit(files[*] !~ "src/**")', 'Edit', mixed)).toBe('match');
    expect(matches('Edit(files[*] !~ "src/**")', 'Edit', inside)).toBe('no_match');
  });

  it('ANDs several conditions', () => {
    const text = 'Edit(file.path ~ "src/**", mode = "write")';
    expect(matches(text, 'Edit', { file: { path: 'src/a' }, mode: 'write' })).toBe('match');
    expect(matches(text, 'Edit', { file: { path: 'src/a' }, mode: 'read' })).toBe('no_match');
  });

  it('compares = strictly by JSON type', () => {
    expect(matches('T(n = 1)', 'T', { n: 1 })).toBe('match');
    expect(matches('T(n = 1)', 'T', { n: '1' })).toBe('no_match');
    expect(matches('T(b = true)', 'T', { b: true })).toBe('match');
    expect(matches('T(z = null)', 'T', { z: null })).toBe('match');
  });

  it('searches with =~ (unanchored) and supports regex literals with flags', () => {
    expect(matches('Bash(command =~ "sudo")', 'Bash', { command: 'x && sudo rm' })).toBe('match');
    expect(matches('Bash(command =~ /^SUDO/i)', 'Bash', { command: 'sudo ls' })).toBe('match');
    expect(matches('Bash(command !=~ "sudo")', 'Bash', { command: 'ls' })).toBe('match');
  });

  it('globs and regexes see numbers and booleans as text, never objects', () => {
    expect(matches('T(port ~ "80*")', 'T', { port: 8080 })).toBe('match');
    expect(matches('T(o ~ "**")', 'T', { o: { a: 1 } })).toBe('no_match');
  });
});

describe('resolvePrimaryArgument', () => {
  it('uses the configured path first', () => {
    const primary = paths({ Edit: 'file.path' });
    expect(resolvePrimaryArgument('Edit', { file: { path: 'a' }, text: 'b' }, primary)).toBe('a');
    expect(resolvePrimaryArgument('Edit', { text: 'b' }, primary)).toBeUndefined();
  });

  it('uses string arguments as they are', () => {
    expect(resolvePrimaryArgument('Bash', 'ls -la')).toBe('ls -la');
  });

  it('uses the only string field, and nothing when there are several', () => {
    expect(resolvePrimaryArgument('Bash', { command: 'ls', timeout: 5 })).toBe('ls');
    expect(resolvePrimaryArgument('Bash', { command: 'ls', cwd: '/' })).toBeUndefined();
    expect(resolvePrimaryArgument('Bash', {})).toBeUndefined();
  });

  it('reports a primary glob on an undeterminable argument as undetermined', () => {
    expect(matches('Bash(rm **)', 'Bash', { command: 'rm -rf /', note: 'x' })).toBe('undetermined');
    const primary = paths({ Bash: 'command' });
    expect(matches('Bash(rm **)', 'Bash', { command: 'rm -rf /', note: 'x' }, primary)).toBe('match');
  });
});
