import { describe, expect, it } from 'vitest';
import { AwakenError } from '../errors/awaken-error';
import { toJsonValue } from './json-value';

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

  it('drops undefined members and stores -0 as 0, as JSON writes them', () => {
    const copy = toJsonValue({ kept: 1, gone: undefined, zero: -0 });
    expect(Object.keys(copy)).toEqual(['kept', 'zero']);
    expect(Object.is(copy.zero, 0)).toBe(true);
  });

  it('keeps an own __proto__ member as data, without touching the prototype', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}}');
    const copy = toJsonValue(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('rejects what JSON cannot hold exactly, naming the path', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(rejection({ when: new Date(0) })).toMatch(/when: not a JSON value: a Date/);
    expect(rejection({ n: [1, Number.NaN] })).toMatch(/n\.1: not a JSON value: NaN/);
    expect(rejection({ big: 1n })).toMatch(/big: not a JSON value: a bigint/);
    expect(rejection({ m: new Map() })).toMatch(/m: not a JSON value: a Map/);
    expect(rejection({ f: () => 1 })).toMatch(/f: not a JSON value: a function/);
    expect(rejection([undefined])).toMatch(/0: not a JSON value: undefined in an array/);
    expect(rejection(cyclic)).toMatch(/self: not a JSON value: a cycle/);
    expect(rejection(Number.POSITIVE_INFINITY)).toMatch(/\(root\): not a JSON value: Infinity/);
  });

  it('accepts a value that appears twice without being a cycle', () => {
    const shared = { x: 1 };
    expect(toJsonValue({ a: shared, b: [shared] })).toEqual({ a: { x: 1 }, b: [{ x: 1 }] });
  });
});
