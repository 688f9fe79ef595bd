import { describe, expect, it } from 'vitest';
import { findUnsafePattern, hasNestedQuantifier } from './find-unsafe-pattern';
import { validateJsonSchema } from './validate-json-schema';

describe('hasNestedQuantifier', () => {
  it.each(['^(a+)+$', '(\\w*)*', '((ab)+c)*', '(x+y?){2,}', '(a*){2,5}', '(?:[a-z]+\\s?)+$', '((a+))+'])(
    'rejects %s',
    (pattern) => expect(hasNestedQuantifier(pattern)).toBe(true),
  );
  it.each([
    '^[a-z]+$',
    '(foo|bar)+',
    '^(a+)?$',
    '(a+){1}',
    '(ab){2,3}',
    '[(+)]+',
    '\\(a+\\)+',
    '^\\d{3}-\\d{4}$',
    '(a+)b',
  ])('accepts %s', (pattern) => expect(hasNestedQuantifier(pattern)).toBe(false));
});

describe('findUnsafePattern', () => {
  it('finds a nested pattern and a patternProperties key anywhere in the schema', () => {
    expect(findUnsafePattern({ properties: { a: { items: { pattern: '(a+)+' } } } })).toBe('(a+)+');
    expect(findUnsafePattern({ patternProperties: { '^(x*)*$': {} } })).toBe('^(x*)*$');
    expect(findUnsafePattern({ enum: [{ pattern: '(a+)+' }] })).toBeUndefined();
    expect(
      findUnsafePattern({ properties: { pattern: { type: 'string', pattern: '^[a-z]+$' } } }),
    ).toBeUndefined();
  });
});

describe('validateJsonSchema with a catastrophic pattern', () => {
  it('refuses the schema instead of blocking the event loop on a crafted string', () => {
    const issues = validateJsonSchema({ type: 'string', pattern: '^(a+)+$' }, `${'a'.repeat(40)}!`);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.message).toMatch(/nests unbounded quantifiers/);
  });

  it('still checks a safe pattern', () => {
    expect(validateJsonSchema({ type: 'string', pattern: '^[a-z]+$' }, 'abc')).toEqual([]);
    expect(validateJsonSchema({ type: 'string', pattern: '^[a-z]+$' }, 'ab1')).toHaveLength(1);
  });
});
