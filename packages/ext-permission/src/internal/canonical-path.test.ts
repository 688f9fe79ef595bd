import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalPath } from './canonical-path';
import { compileGlob, compileGlobMatcher } from './compile-glob';

describe('canonicalPath', () => {
  it.each([
    // [value, canonical form, why]
    ['/etc/passwd', '/etc/passwd', 'already canonical'],
    ['/tmp/../etc/passwd', '/etc/passwd', '`..` removes the segment before it'],
    ['//etc/passwd', '/etc/passwd', 'repeated `/` collapse'],
    ['///etc//passwd', '/etc/passwd', 'repeated `/` collapse anywhere'],
    ['/./etc/passwd', '/etc/passwd', '`.` is dropped'],
    ['/etc/', '/etc', 'a trailing `/` is dropped'],
    ['/etc/passwd/.', '/etc/passwd', 'a trailing `.` is dropped'],
    ['/../etc/passwd', '/etc/passwd', '`..` above the root stays at the root'],
    ['/../../../../etc/shadow', '/etc/shadow', 'however many times'],
    ['/tmp/x/..//../etc/hosts', '/etc/hosts', 'mixed'],
    ['/', '/', 'the root'],
    ['', '/', 'empty: the root'],
    ['..', '/', 'relative: resolved against the root'],
    ['../etc/passwd', '/etc/passwd', 'relative, climbing out'],
    ['etc/passwd', '/etc/passwd', 'relative'],
    ['./notes.txt', '/notes.txt', 'relative with `.`'],
    ['/__proto__/../etc/passwd', '/etc/passwd', '`__proto__` is an ordinary name'],
    ['/constructor/x', '/constructor/x', '`constructor` is an ordinary name'],
    ['/tmp/%2e%2e/etc/passwd', '/tmp/%2e%2e/etc/passwd', 'percent escapes are not decoded'],
    ['/tmp/..%2fetc', '/tmp/..%2fetc', 'an encoded `/` is not a separator'],
    ['/tmp\\..\\etc\\passwd', '/tmp\\..\\etc\\passwd', 'POSIX: `\\` is part of a name'],
    ['C:\\Windows\\System32', '/C:\\Windows\\System32', 'a Windows path is one relative name'],
    ['/tmp/.../x', '/tmp/.../x', '`...` is an ordinary name'],
    ['/tmp/ /x', '/tmp/ /x', 'a space is an ordinary name'],
  ])('%j → %j (%s)', (value, expected) => {
    expect(canonicalPath(value)).toBe(expected);
  });

  it('has no canonical form for a value holding a NUL byte', () => {
    expect(canonicalPath('/tmp/x\u0000/../../etc/passwd')).toBeUndefined();
    expect(canonicalPath('\u0000')).toBeUndefined();
  });

  it('is linear on very long paths', () => {
    const started = performance.now();
    expect(canonicalPath(`${'/a/..'.repeat(200_000)}/etc/passwd`)).toBe('/etc/passwd');
    expect(canonicalPath('/'.repeat(1_000_000))).toBe('/');
    expect(canonicalPath(`/${'x'.repeat(1_000_000)}`)).toHaveLength(1_000_001);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('is idempotent and always absolute', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a./\\%_]{0,40}$/), (value) => {
        const once = canonicalPath(value)!;
        expect(once.startsWith('/')).toBe(true);
        expect(canonicalPath(once)).toBe(once);
        expect(once === '/' || !once.endsWith('/')).toBe(true);
        expect(once).not.toMatch(/\/\/|\/\.\.?(\/|$)/);
      }),
    );
  });
});

describe('compileGlobMatcher', () => {
  it('agrees with the glob regex on short inputs', () => {
    const glob = fc.stringMatching(/^(?:[ab/]|\*|\*\*|\*\*\/|\?|\\\*){0,8}$/);
    const text = fc.stringMatching(/^[ab/*\n]{0,12}$/);
    fc.assert(
      fc.property(glob, text, (pattern, value) => {
        expect(compileGlobMatcher(pattern)(value)).toBe(compileGlob(pattern).test(value));
      }),
      { numRuns: 2_000 },
    );
  });
});
