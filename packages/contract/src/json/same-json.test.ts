import { describe, expect, it } from 'vitest';
import { sameJson } from './same-json';

describe('sameJson', () => {
  it('ignores key order and members holding undefined; compares arrays item by item', () => {
    expect(sameJson({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson([1, 2], [1, 2])).toBe(true);
  });

  it('tells every difference apart: a value, a key, a length, an array from an object, null from absent', () => {
    expect(sameJson({ path: '/tmp/a' }, { path: '/srv/a' })).toBe(false);
    expect(sameJson({ a: 1 }, { b: 1 })).toBe(false);
    expect(sameJson([1, 2], [1, 2, 3])).toBe(false);
    expect(sameJson([], {})).toBe(false);
    expect(sameJson({ a: null }, {})).toBe(false);
    expect(sameJson('1', 1)).toBe(false);
  });
});
