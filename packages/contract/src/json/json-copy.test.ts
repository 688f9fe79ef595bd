import { describe, expect, it } from 'vitest';
import { jsonCopy } from './json-copy';

const viaJson = (value: unknown) => JSON.parse(JSON.stringify(value));

describe('jsonCopy', () => {
  const cases: [string, unknown][] = [
    ['undefined, function and symbol members dropped', { a: undefined, b: () => 1, c: Symbol('s'), d: 1 }],
    ['undefined, function and symbol array items as null', [undefined, () => 1, Symbol('s'), 2]],
    ['-0 as 0, non-finite numbers as null', { z: -0, n: Number.NaN, i: [Number.POSITIVE_INFINITY] }],
    ['toJSON honoured', { at: new Date(0), custom: { toJSON: () => 'x' } }],
    ['a Map as {}', { map: new Map([[1, 2]]) }],
    [
      'a toJSON giving undefined: member dropped, array item null',
      { a: { toJSON: () => undefined }, b: [{ toJSON: () => undefined }] },
    ],
    ['nesting', { a: [{ b: [[{ c: 'ü' }]] }], e: null, t: true }],
  ];
  for (const [name, value] of cases) {
    it(`gives what JSON gives: ${name}`, () => {
      expect(jsonCopy(value)).toStrictEqual(viaJson(value));
    });
  }

  it('is undefined where JSON writes nothing', () => {
    expect(jsonCopy(undefined)).toBeUndefined();
    expect(jsonCopy(() => 1)).toBeUndefined();
    expect(jsonCopy({ toJSON: () => undefined })).toBeUndefined();
  });

  it('keeps an own __proto__ member as data', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}');
    const copy = jsonCopy(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'x']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('shares nothing with the value', () => {
    const value = { list: [{ n: 1 }] };
    const copy = jsonCopy(value);
    value.list[0] = { n: 2 };
    value.list.push({ n: 3 });
    expect(copy).toEqual({ list: [{ n: 1 }] });
  });
});
