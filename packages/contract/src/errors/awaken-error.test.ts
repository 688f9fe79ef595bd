import { describe, expect, it } from 'vitest';
import { AwakenError, toAwakenError } from './awaken-error';

describe('AwakenError', () => {
  it('is recognised by its symbol marker, also for an instance from another copy of the package', () => {
    const foreign = { [Symbol.for('awaken.error')]: true, code: 'conflict', message: 'x' };
    expect(AwakenError.isInstance(new AwakenError('conflict', 'x'))).toBe(true);
    expect(AwakenError.isInstance(foreign)).toBe(true);
    expect(AwakenError.isInstance(new Error('x'))).toBe(false);
    expect(AwakenError.isInstance(null)).toBe(false);
  });

  it('serialises to JSON without stack or cause', () => {
    const error = new AwakenError('model_transient', 'rate limited', {
      cause: new Error('429'),
      retryable: true,
      retryAfterMs: 2000,
      details: { provider: 'openai' },
    });
    const json = JSON.parse(JSON.stringify(error));
    expect(json).toEqual({
      name: 'AwakenError',
      code: 'model_transient',
      message: 'rate limited',
      details: { provider: 'openai' },
      retryable: true,
      retryAfterMs: 2000,
    });
    expect(JSON.stringify(error)).not.toContain('stack');
  });

  it('turns anything caught into an AwakenError, keeping AwakenErrors as they are', () => {
    const original = new AwakenError('not_found', 'no such run');
    expect(toAwakenError(original)).toBe(original);
    const wrapped = toAwakenError(new TypeError('bad'));
    expect(wrapped.code).toBe('internal');
    expect(wrapped.message).toBe('bad');
    expect(toAwakenError('text', 'store_failure').code).toBe('store_failure');
  });
});
