import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../hitl/suspension';
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

const valid = (schema: JsonSchema, value: unknown) => validateJsonSchema(schema, value).length === 0;

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
    expect(validateJsonSchema(list, [1, 0, 2]).map((issue) => issue.path)).toEqual(['(root)', '[1]']);
    expect(validateJsonSchema({ anyOf: [{ type: 'string' }, { type: 'number' }] }, true)).toHaveLength(1);
    expect(validateJsonSchema({ anyOf: [{ type: 'string' }, { type: 'number' }] }, 3)).toEqual([]);
  });

  it('follows $ref into $defs, so a recursive schema from z.toJSONSchema is checked at every depth', () => {
    interface Node {
      value: number;
      children: Node[];
    }
    const node: z.ZodType<Node> = z.object({ value: z.number(), children: z.array(z.lazy(() => node)) });
    const schema = z.toJSONSchema(node) as JsonSchema;
    expect(JSON.stringify(schema)).toContain('$ref');
    expect(valid(schema, { value: 1, children: [{ value: 2, children: [] }] })).toBe(true);
    const issues = validateJsonSchema(schema, {
      value: 1,
      children: [{ value: 2, children: [{ value: 'x' }] }],
    });
    expect(issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['children[0].children[0].value', 'children[0].children[0].children']),
    );
  });

  it('checks format', () => {
    expect(valid({ type: 'string', format: 'email' }, 'ada@example.com')).toBe(true);
    expect(valid({ type: 'string', format: 'email' }, 'not an email')).toBe(false);
    expect(valid({ type: 'string', format: 'date-time' }, '2024-13-45T99:00:00Z')).toBe(false);
    expect(valid({ type: 'string', format: 'uuid' }, 'abc')).toBe(false);
  });

  it('checks not and if/then/else', () => {
    expect(valid({ not: { type: 'string' } }, 'x')).toBe(false);
    expect(valid({ not: { type: 'string' } }, 1)).toBe(true);
    // built from entries: an object literal with a `then` key reads as a thenable to linters
    const conditional = Object.fromEntries([
      ['type', 'object'],
      ['if', { properties: { kind: { const: 'refund' } }, required: ['kind'] }],
      ['then', { required: ['amount'] }],
      ['else', { required: ['note'] }],
    ]);
    expect(valid(conditional, { kind: 'refund' })).toBe(false);
    expect(valid(conditional, { kind: 'refund', amount: 3 })).toBe(true);
    expect(valid(conditional, { kind: 'other' })).toBe(false);
    expect(valid(conditional, { kind: 'other', note: 'n' })).toBe(true);
  });

  it('checks exclusiveMinimum, exclusiveMaximum and multipleOf', () => {
    expect(valid({ type: 'number', exclusiveMinimum: 5 }, 5)).toBe(false);
    expect(valid({ type: 'number', exclusiveMinimum: 5 }, 5.1)).toBe(true);
    expect(valid({ type: 'number', exclusiveMaximum: 5 }, 5)).toBe(false);
    expect(valid({ type: 'integer', multipleOf: 3 }, 7)).toBe(false);
    expect(valid({ type: 'integer', multipleOf: 3 }, 9)).toBe(true);
    expect(valid({ type: 'number', multipleOf: 0.1 }, 0.3)).toBe(true);
  });

  it('checks uniqueItems by deep equality, whatever the key order', () => {
    expect(
      valid({ type: 'array', uniqueItems: true }, [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ]),
    ).toBe(false);
    expect(valid({ type: 'array', uniqueItems: true }, [{ a: 1 }, { a: 2 }])).toBe(true);
  });

  it('checks prefixItems (tuples) and items after them', () => {
    const pair = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false };
    expect(valid(pair, ['a', 1])).toBe(true);
    expect(valid(pair, [1, 'a'])).toBe(false);
    expect(valid(pair, ['a', 1, true])).toBe(false);
  });

  it('checks minProperties and maxProperties', () => {
    expect(valid({ type: 'object', minProperties: 1 }, {})).toBe(false);
    expect(valid({ type: 'object', maxProperties: 1 }, { a: 1, b: 2 })).toBe(false);
  });

  it('refuses the keys toString and __proto__ when additionalProperties is false', () => {
    const closed = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false };
    for (const key of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) {
      const payload = JSON.parse(`{"${key}": 1}`);
      expect(validateJsonSchema(closed, payload), key).toEqual([
        { path: key, message: 'is not an allowed property' },
      ]);
    }
    expect(valid({ type: 'object', required: ['toString'] }, {})).toBe(false);
  });

  it('compares enum and const values deeply, ignoring key order', () => {
    expect(valid({ enum: [{ a: 1, b: [1, { c: 1, d: 2 }] }] }, { b: [1, { d: 2, c: 1 }], a: 1 })).toBe(true);
    expect(valid({ const: { a: 1, b: 2 } }, { b: 2, a: 1 })).toBe(true);
    expect(validateJsonSchema({ const: { a: 1, b: 2 } }, { a: 1, b: 3 })).toEqual([
      { path: '(root)', message: 'must equal {"a":1,"b":2}' },
    ]);
  });

  it('counts string lengths in code points, not UTF-16 units', () => {
    expect(valid({ type: 'string', maxLength: 1 }, '😀')).toBe(true);
    expect(valid({ type: 'string', minLength: 2 }, '😀')).toBe(false);
    expect(valid({ type: 'string', maxLength: 3 }, '👍👍👍')).toBe(true);
  });

  it('treats a false subschema as "nothing is allowed" instead of throwing', () => {
    const schema = { type: 'object', properties: { secret: false, name: true } };
    expect(() => validateJsonSchema(schema, { secret: 1 })).not.toThrow();
    expect(validateJsonSchema(schema, { secret: 1 })).toEqual([
      { path: 'secret', message: 'is not allowed' },
    ]);
    expect(valid(schema, { name: 'x' })).toBe(true);
  });

  it('reports a broken schema (an unresolvable $ref) as an issue, never a throw', () => {
    const issues = validateJsonSchema({ $ref: '#/$defs/missing' }, 1);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.message).toMatch(/schema/);
  });

  it('names paths of keys containing slashes and tildes, and of array items', () => {
    const schema = {
      type: 'object',
      properties: { 'a/b': { type: 'string' }, list: { type: 'array', items: { type: 'string' } } },
    };
    expect(validateJsonSchema(schema, { 'a/b': 1, list: ['x', 2] }).map((issue) => issue.path)).toEqual([
      'a/b',
      'list[1]',
    ]);
  });

  it('does not modify the schema it is given', () => {
    const schema = structuredClone(approval);
    validateJsonSchema(schema, { approved: 1, extra: true });
    expect(schema).toEqual(approval);
  });
});
