import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, findJsonIssue, formatJsonIssue } from './find-json-issue';

describe('findJsonIssue', () => {
  it('accepts what JSON holds, including shared (not cyclic) references and toJSON values', () => {
    const shared = { x: 1 };
    expect(
      findJsonIssue({ a: [shared, shared], at: new Date(0), s: 'x', n: -1.5, b: true, z: null }),
    ).toBeUndefined();
    expect(findJsonIssue({ skipped: undefined, fn: () => 1 })).toBeUndefined();
    expect(findJsonIssue(undefined)).toBeUndefined();
  });

  it('names the path of a BigInt, a non-finite number, a cycle and a function value', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = { back: cyclic };
    expect(findJsonIssue({ amount: { value: 1n } })).toEqual({
      path: 'amount.value',
      message: 'a BigInt is not JSON',
    });
    expect(formatJsonIssue(findJsonIssue({ list: [1, Number.NaN] }) ?? { path: '', message: '' })).toBe(
      'list[1]: the number NaN is not JSON',
    );
    expect(findJsonIssue([Number.POSITIVE_INFINITY])?.path).toBe('[0]');
    expect(findJsonIssue(cyclic)).toEqual({ path: 'self.back', message: 'a cycle is not JSON' });
    expect(findJsonIssue(() => 1)?.message).toBe('a function is not JSON');
    expect(findJsonIssue([Symbol('s')])?.message).toBe('a symbol is not JSON');
  });

  it('names the path of a string or member name with a lone surrogate, and accepts whole pairs', () => {
    const cut = '👍 ok'.slice(1);
    expect(findJsonIssue({ note: '👍 ok', '👍': ['\u00e9'] })).toBeUndefined();
    expect(findJsonIssue({ result: { note: cut } })).toEqual({
      path: 'result.note',
      message: 'a string that has a lone UTF-16 surrogate (not well-formed Unicode)',
    });
    expect(findJsonIssue(['ok', 'x\uD800'])?.path).toBe('[1]');
    expect(findJsonIssue('\uDBFF')?.path).toBe('');
    expect(findJsonIssue({ meta: { 'a\uDC00': 1 } })).toEqual({
      path: 'meta',
      message: 'the member name "a\\udc00" has a lone UTF-16 surrogate (not well-formed Unicode)',
    });
    expect(findJsonIssue({ at: { toJSON: () => '\uD800' } })?.path).toBe('at');
  });

  it('reports nesting beyond the limit without overflowing the stack, even 100,000 deep', () => {
    let nested: unknown = 1;
    for (let depth = 0; depth < 100_000; depth += 1) nested = [nested];
    expect(findJsonIssue(nested)?.message).toBe(`nests deeper than ${MAX_JSON_DEPTH} levels`);
    let fits: unknown = 1;
    for (let depth = 0; depth < MAX_JSON_DEPTH; depth += 1) fits = { n: fits };
    expect(findJsonIssue(fits)).toBeUndefined();
    expect(findJsonIssue({ n: fits })?.message).toMatch(/deeper/);
    expect(findJsonIssue([[1]], { maxDepth: 1 })?.path).toBe('[0]');
  });

  it('reports a throwing toJSON as an issue instead of throwing', () => {
    const value = {
      toJSON: () => {
        throw new Error('nope');
      },
    };
    expect(findJsonIssue({ v: value })).toEqual({ path: 'v', message: 'toJSON threw: nope' });
  });
});
