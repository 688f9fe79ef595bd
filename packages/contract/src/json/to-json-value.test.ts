import { describe, expect, it } from 'vitest';
import { AwakenError } from '../errors/awaken-error';
import { MAX_JSON_DEPTH } from './find-json-issue';
import { toJsonValue } from './to-json-value';

function rejection(value: unknown): string {
  try {
    toJsonValue(value, 'metadata');
  } catch (error) {
    if (AwakenError.hasCode(error, 'validation_failed')) return error.message;
    throw error;
  }
  throw new Error('accepted');
}

describe('toJsonValue', () => {
  it('copies JSON data exactly, sharing nothing with the input', () => {
    const input = { a: [1, 'two', null, true, { b: 1.5 }], c: {} };
    const copy = toJsonValue(input);
    expect(copy).toEqual(input);
    expect(copy).not.toBe(input);
    expect(copy.a).not.toBe(input.a);
    expect(copy.a[4]).not.toBe(input.a[4]);
  });

  it('gives the JSON form, as JSON.stringify writes it', () => {
    const copy = toJsonValue({
      kept: 1,
      gone: undefined,
      fn: () => 1,
      zero: -0,
      when: new Date(0),
      list: [undefined],
      map: new Map([[1, 2]]),
    });
    expect(copy).toEqual({ kept: 1, zero: 0, when: '1970-01-01T00:00:00.000Z', list: [null], map: {} });
    expect(Object.is(copy.zero, 0)).toBe(true);
  });

  it('keeps an own __proto__ member as data, without touching the prototype', () => {
    const copy = toJsonValue(JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('rejects what JSON cannot hold faithfully, naming the path', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    let deep: unknown = 1;
    for (let level = 0; level <= MAX_JSON_DEPTH; level += 1) deep = [deep];
    expect(rejection({ n: [1, Number.NaN] })).toMatch(/n\[1\]: the number NaN is not JSON/);
    expect(rejection({ big: 1n })).toMatch(/big: a BigInt is not JSON/);
    expect(rejection(cyclic)).toMatch(/self: a cycle is not JSON/);
    expect(rejection({ deep })).toMatch(/nests deeper than 256 levels/);
    expect(rejection([() => 1])).toMatch(/\[0\]: a function is not JSON/);
  });
});
