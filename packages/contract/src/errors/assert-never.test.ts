import { describe, expect, it } from 'vitest';
import { assertNever } from './assert-never';
import { AwakenError } from './awaken-error';

describe('assertNever', () => {
  it('throws an internal AwakenError naming the unexpected value', () => {
    const shape = { type: 'hexagon' } as unknown as never;
    expect(() => assertNever(shape, 'shape')).toThrow('unexpected shape: {"type":"hexagon"}');
    try {
      assertNever(10n as unknown as never);
    } catch (error) {
      expect(AwakenError.hasCode(error, 'internal')).toBe(true);
      expect((error as Error).message).toBe('unexpected value: 10');
    }
  });
});
