import { describe, expect, it } from 'vitest';
import { toJsonValue, toReadableText } from './to-json-value';

describe('toJsonValue', () => {
  it('returns plain JSON as is, without copying', () => {
    const value = { a: [1, 'two', { three: true }], b: null, c: undefined };
    expect(toJsonValue(value)).toBe(value);
  });

  it('converts what JSON cannot hold', () => {
    expect(toJsonValue(undefined)).toBeNull();
    expect(toJsonValue(Number.NaN)).toBe('NaN');
    expect(toJsonValue({ when: new Date(0), n: [Number.POSITIVE_INFINITY] })).toEqual({
      when: '1970-01-01T00:00:00.000Z',
      n: [null],
    });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toJsonValue(cyclic)).toBe('[object Object]');
    expect(toJsonValue(10n)).toBe('10');
  });

  it('renders readable text', () => {
    expect(toReadableText('plain')).toBe('plain');
    expect(toReadableText({ a: 1 })).toBe('{"a":1}');
    expect(toReadableText(undefined)).toBe('');
  });
});
