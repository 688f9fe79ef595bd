import { describe, expect, it } from 'vitest';
import { validateJsonSchema } from './validate-json-schema';

const approval = {
  type: 'object',
  properties: {
    approved: { type: 'boolean' },
    reason: { type: 'string', maxLength: 20 },
    remember: { enum: ['once', 'always'] },
  },
  required: ['approved'],
  additionalProperties: false,
};

describe('validateJsonSchema', () => {
  it('accepts a valid payload', () => {
    expect(validateJsonSchema(approval, { approved: true, remember: 'always' })).toEqual([]);
  });

  it('names each failing field', () => {
    expect(validateJsonSchema(approval, { approved: 'yes', remember: 'never', extra: 1 })).toEqual([
      { path: 'approved', message: 'expected boolean, got string' },
      { path: 'remember', message: 'must be one of ["once","always"]' },
      { path: 'extra', message: 'is not an allowed property' },
    ]);
    expect(validateJsonSchema(approval, {})).toEqual([{ path: 'approved', message: 'is required' }]);
  });

  it('checks root types, arrays, numbers and anyOf', () => {
    expect(validateJsonSchema(approval, 'yes')[0]?.path).toBe('(root)');
    const list = { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 2 };
    expect(validateJsonSchema(list, [1, 0, 2])).toEqual([
      { path: '(root)', message: 'must have at most 2 items' },
      { path: '[1]', message: 'must be >= 1' },
    ]);
    expect(validateJsonSchema({ anyOf: [{ type: 'string' }, { type: 'number' }] }, true)).toHaveLength(1);
    expect(validateJsonSchema({ anyOf: [{ type: 'string' }, { type: 'number' }] }, 3)).toEqual([]);
  });
});
