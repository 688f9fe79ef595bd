import { type Schema, type SchemaDraft, Validator } from '@cfworker/json-schema';
import type { JsonSchema } from '../hitl/suspension';
import { findUnsafePattern } from './find-unsafe-pattern';
import { type JsonSchemaIssue, toJsonSchemaIssues } from './to-json-schema-issues';

export type { JsonSchemaIssue } from './to-json-schema-issues';

/** A compiled schema: returns every issue of `value`; an empty array means valid. */
export type JsonSchemaCheck = (value: unknown) => JsonSchemaIssue[];

const DRAFTS: ReadonlyArray<[pattern: RegExp, draft: SchemaDraft]> = [
  [/draft-04/, '4'],
  [/draft-0[67]/, '7'],
  [/2019-09/, '2019-09'],
];

function draftOf(schema: JsonSchema): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  return DRAFTS.find(([pattern]) => pattern.test(declared))?.[1] ?? '2020-12';
}

function brokenSchema(error: unknown): JsonSchemaIssue[] {
  const reason = error instanceof Error ? error.message : String(error);
  return [{ path: '(root)', message: `the schema cannot be used: ${reason}` }];
}

/**
 * Compiles `schema` once for many validations. The schema is copied first, so later changes to the
 * caller's object have no effect and the caller's object is never modified.
 *
 * Guarantees: full JSON Schema (drafts 4, 7, 2019-09 and 2020-12, chosen by `$schema`, 2020-12 when
 * absent) — `$ref`/`$defs` including recursive schemas, `format`, `not`, `if`/`then`/`else`,
 * exclusive bounds, `multipleOf`, `uniqueItems`, `prefixItems`, property counts, boolean
 * subschemas; `enum`/`const`/`uniqueItems` compare deeply (object key order does not matter); string
 * lengths count code points; own properties only (`toString` or `__proto__` are ordinary keys). A
 * schema that cannot be used (e.g. an unresolvable `$ref`) yields one `(root)` issue for every value;
 * the check never throws. A `pattern` that nests unbounded quantifiers (`(a+)+`) makes the schema
 * unusable instead of risking catastrophic backtracking on a crafted string (a star-height check).
 */
export function compileJsonSchema(schema: JsonSchema): JsonSchemaCheck {
  const unsafe = findUnsafePattern(schema);
  if (unsafe !== undefined) {
    const reason = new Error(
      `pattern ${JSON.stringify(unsafe)} nests unbounded quantifiers and can backtrack catastrophically`,
    );
    return () => brokenSchema(reason);
  }
  let validator: Validator;
  try {
    validator = new Validator(structuredClone(schema) as Schema, draftOf(schema), false);
  } catch (error) {
    return () => brokenSchema(error);
  }
  return (value) => {
    try {
      const result = validator.validate(value);
      return result.valid ? [] : toJsonSchemaIssues(result.errors, value);
    } catch (error) {
      return brokenSchema(error);
    }
  };
}

/**
 * Validates `value` against `schema` (see {@link compileJsonSchema} for what is checked). Returns
 * every issue found, each naming its field (`a.b[0]`, or `(root)`); an empty array means valid.
 * Never throws, whatever the schema or value.
 */
export function validateJsonSchema(schema: JsonSchema, value: unknown): JsonSchemaIssue[] {
  return compileJsonSchema(schema)(value);
}
