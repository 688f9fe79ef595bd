import {
  AwakenError,
  JSON_SCHEMA_INPUT_MARKER,
  type JsonSchema,
  type JsonSchemaInput,
  type StandardSchemaLike,
  compileJsonSchema,
} from '@awaken/contract';
import { z } from 'zod';

/** The outcome of checking a call's arguments: the value the tool receives, or what is wrong. */
export type ArgumentsCheck = { ok: true; value: unknown } | { ok: false; message: string };

/** A tool's input schema, whatever it was given as: its JSON Schema for the model, and its check. */
export interface ResolvedToolInput {
  jsonSchema: JsonSchema;
  check(raw: unknown): Promise<ArgumentsCheck>;
}

type StandardSchema = StandardSchemaLike<unknown>;

function isRecord(value: unknown): value is Record<PropertyKey, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJsonSchemaInput(value: unknown): value is JsonSchemaInput {
  return isRecord(value) && value[JSON_SCHEMA_INPUT_MARKER] === true && 'jsonSchema' in value;
}

function isStandardSchema(value: unknown): value is StandardSchema {
  const props = (value as { '~standard'?: unknown } | null)?.['~standard'];
  return isRecord(props) && typeof props.validate === 'function';
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return isRecord(value) && typeof value.then === 'function';
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object of another shape' : `a ${typeof value}`;
}

function pathText(path: StandardSchemaIssuePath): string {
  if (path === undefined || path.length === 0) return '(root)';
  return path.map((part) => String(typeof part === 'object' ? part.key : part)).join('.');
}

type StandardSchemaIssuePath = ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;

/**
 * The JSON Schema a Standard Schema gives of itself. Asking the schema (Standard JSON Schema, zod ≥
 * 4.2) keeps descriptions that only the application's copy of the library knows; an older zod 4 is
 * converted here with its own metadata (`.meta()` reads the registry of the copy that made it).
 */
function standardJsonSchema(schema: StandardSchema, where: string): JsonSchema {
  const props = schema['~standard'];
  const convert = props.jsonSchema?.input;
  if (typeof convert === 'function') {
    try {
      return convert({ target: 'draft-2020-12' });
    } catch {
      return convert({ target: 'draft-07' });
    }
  }
  if ('_zod' in schema) {
    const ownMetadata = {
      get: (node: { meta?: () => unknown }) => (typeof node.meta === 'function' ? node.meta() : undefined),
    };
    return z.toJSONSchema(schema as unknown as z.ZodType, {
      io: 'input',
      metadata: ownMetadata as never,
    }) as JsonSchema;
  }
  const hint = props.vendor === 'zod' ? 'a zod 3 schema; use zod 4' : `a "${props.vendor}" Standard Schema`;
  throw new AwakenError(
    'invalid_config',
    `${where} is ${hint}, which cannot describe itself as JSON Schema (no ~standard.jsonSchema); give a JSON Schema with jsonSchemaInput() or AI SDK's jsonSchema() instead`,
  );
}

function fromStandardSchema(schema: StandardSchema, where: string, override?: JsonSchema): ResolvedToolInput {
  let jsonSchema: JsonSchema;
  try {
    jsonSchema = override ?? standardJsonSchema(schema, where);
  } catch (error) {
    if (AwakenError.isInstance(error)) throw error;
    throw new AwakenError('invalid_config', `${where} cannot be converted to JSON Schema: ${String(error)}`, {
      cause: error,
    });
  }
  return {
    jsonSchema,
    async check(raw) {
      const result = await schema['~standard'].validate(raw);
      if (result.issues === undefined) return { ok: true, value: result.value };
      const detail = result.issues.map((issue) => `${pathText(issue.path)}: ${issue.message}`).join('; ');
      return { ok: false, message: detail };
    },
  };
}

function fromJsonSchemaInput(
  input: JsonSchemaInput,
  where: string,
  override?: JsonSchema,
): ResolvedToolInput {
  const schema = override ?? input.jsonSchema;
  if (isPromiseLike(schema)) {
    throw new AwakenError(
      'invalid_config',
      `${where} has a JSON Schema that is still a promise; await it before defining the agent`,
    );
  }
  if (!isRecord(schema)) {
    throw new AwakenError(
      'invalid_config',
      `${where}.jsonSchema must be a JSON Schema object, got ${describeValue(schema)}`,
    );
  }
  const checkSchema = compileJsonSchema(schema);
  const validate = input.validate;
  return {
    jsonSchema: schema,
    async check(raw) {
      const issues = checkSchema(raw);
      if (issues.length > 0) {
        return { ok: false, message: issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ') };
      }
      if (typeof validate !== 'function') return { ok: true, value: raw };
      const result = await validate(raw);
      return result.success
        ? { ok: true, value: result.value }
        : { ok: false, message: result.error.message };
    },
  };
}

/**
 * Resolves a tool input schema — zod or any Standard Schema, a JSON Schema wrapped by
 * `jsonSchemaInput()` / AI SDK's `jsonSchema()`, or a function returning one (AI SDK's
 * `lazySchema`). Throws `invalid_config` naming `where` when the value is none of these or cannot
 * describe itself to the model. `override` replaces the JSON Schema sent to the model.
 */
export function resolveToolInput(schema: unknown, where: string, override?: JsonSchema): ResolvedToolInput {
  const value =
    typeof schema === 'function' && !isStandardSchema(schema) ? (schema as () => unknown)() : schema;
  if (isJsonSchemaInput(value)) return fromJsonSchemaInput(value, where, override);
  if (isStandardSchema(value)) return fromStandardSchema(value, where, override);
  throw new AwakenError(
    'invalid_config',
    `${where} must be a zod schema, a Standard Schema or a JSON Schema from jsonSchemaInput() / AI SDK's jsonSchema(), got ${describeValue(value)}`,
  );
}
