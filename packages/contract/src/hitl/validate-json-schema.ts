import type { JsonSchema } from './suspension';

/** One way a value fails a JSON Schema: the JSON pointer-ish path and what is wrong. */
export interface JsonSchemaIssue {
  path: string;
  message: string;
}

type Schema = Record<string, unknown>;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

function validateNode(schema: Schema, value: unknown, path: string, issues: JsonSchemaIssue[]): void {
  const where = path === '' ? '(root)' : path;
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((type) => matchesType(value, type))) {
      issues.push({ path: where, message: `expected ${types.join(' | ')}, got ${typeOf(value)}` });
      return;
    }
  }
  if (
    Array.isArray(schema.enum) &&
    !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))
  ) {
    issues.push({ path: where, message: `must be one of ${JSON.stringify(schema.enum)}` });
  }
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) {
    issues.push({ path: where, message: `must equal ${JSON.stringify(schema.const)}` });
  }
  if (typeof value === 'string') validateString(schema, value, where, issues);
  if (typeof value === 'number') validateNumber(schema, value, where, issues);
  if (Array.isArray(value)) validateArray(schema, value, path, issues);
  else if (typeOf(value) === 'object') validateObject(schema, value as Record<string, unknown>, path, issues);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const options = schema[keyword];
    if (Array.isArray(options)) {
      const passing = options.filter(
        (option) => validateJsonSchema(option as Schema, value).length === 0,
      ).length;
      const ok = keyword === 'anyOf' ? passing > 0 : passing === 1;
      if (!ok)
        issues.push({
          path: where,
          message: `must match ${keyword === 'anyOf' ? 'at least one' : 'exactly one'} schema of ${keyword}`,
        });
    }
  }
  if (Array.isArray(schema.allOf)) {
    for (const option of schema.allOf) validateNode(option as Schema, value, path, issues);
  }
}

function validateString(schema: Schema, value: string, where: string, issues: JsonSchemaIssue[]): void {
  if (typeof schema.minLength === 'number' && value.length < schema.minLength) {
    issues.push({ path: where, message: `must have at least ${schema.minLength} characters` });
  }
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) {
    issues.push({ path: where, message: `must have at most ${schema.maxLength} characters` });
  }
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) {
    issues.push({ path: where, message: `must match pattern ${schema.pattern}` });
  }
}

function validateNumber(schema: Schema, value: number, where: string, issues: JsonSchemaIssue[]): void {
  if (typeof schema.minimum === 'number' && value < schema.minimum)
    issues.push({ path: where, message: `must be >= ${schema.minimum}` });
  if (typeof schema.maximum === 'number' && value > schema.maximum)
    issues.push({ path: where, message: `must be <= ${schema.maximum}` });
}

function validateArray(schema: Schema, value: unknown[], path: string, issues: JsonSchemaIssue[]): void {
  const where = path === '' ? '(root)' : path;
  if (typeof schema.minItems === 'number' && value.length < schema.minItems)
    issues.push({ path: where, message: `must have at least ${schema.minItems} items` });
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
    issues.push({ path: where, message: `must have at most ${schema.maxItems} items` });
  if (typeof schema.items === 'object' && schema.items !== null) {
    for (const [index, item] of value.entries())
      validateNode(schema.items as Schema, item, `${path}[${index}]`, issues);
  }
}

function validateObject(
  schema: Schema,
  value: Record<string, unknown>,
  path: string,
  issues: JsonSchemaIssue[],
): void {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const prefix = path === '' ? '' : `${path}.`;
  for (const name of (schema.required ?? []) as string[]) {
    if (value[name] === undefined) issues.push({ path: `${prefix}${name}`, message: 'is required' });
  }
  for (const [name, child] of Object.entries(value)) {
    const propertySchema = properties[name];
    if (propertySchema !== undefined) validateNode(propertySchema, child, `${prefix}${name}`, issues);
    else if (schema.additionalProperties === false)
      issues.push({ path: `${prefix}${name}`, message: 'is not an allowed property' });
    else if (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null) {
      validateNode(schema.additionalProperties as Schema, child, `${prefix}${name}`, issues);
    }
  }
}

/**
 * Validates `value` against the JSON Schema subset used for decision payloads: `type`, `enum`,
 * `const`, `properties`, `required`, `additionalProperties`, `items`, string/number/array bounds,
 * `pattern`, `anyOf`, `oneOf`, `allOf`. Unknown keywords are ignored. Returns every issue found,
 * each naming its field; an empty array means valid.
 */
export function validateJsonSchema(schema: JsonSchema, value: unknown): JsonSchemaIssue[] {
  const issues: JsonSchemaIssue[] = [];
  validateNode(schema, value, '', issues);
  return issues;
}
