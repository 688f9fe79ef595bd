import type { JsonSchema } from '../hitl/suspension';

/** One issue reported by a Standard Schema: a message and, when known, the path of the field. */
export interface StandardSchemaIssueLike {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** The result of a Standard Schema `validate`: the parsed value, or the issues. */
export type StandardSchemaResultLike<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaIssueLike> };

/**
 * A Standard Schema v1 (zod 4, Valibot, ArkType, Effect Schema, ...), recognised by its `~standard`
 * property rather than by class, so any copy or version of the library works. A schema that also
 * implements Standard JSON Schema (`~standard.jsonSchema`, e.g. zod ≥ 4.2) describes itself to the
 * model; one that does not must be given as a JSON Schema instead.
 */
export interface StandardSchemaLike<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => StandardSchemaResultLike<Output> | Promise<StandardSchemaResultLike<Output>>;
    readonly jsonSchema?: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}

/** The result of a JSON-Schema input's own `validate`, as AI SDK's `jsonSchema(schema, { validate })` returns it. */
export type JsonSchemaInputValidation<Output> =
  | { success: true; value: Output }
  | { success: false; error: Error };

/**
 * A JSON Schema marked as a tool input schema — the object AI SDK's `jsonSchema()` returns, and what
 * {@link jsonSchemaInput} builds. Arguments are checked against `jsonSchema` by the contract's JSON
 * Schema validator, then by `validate` when one is given.
 */
export interface JsonSchemaInput<Output = unknown> {
  // `object`, not `JsonSchema`: AI SDK types it as `JSONSchema7` (no index signature) when
  // `@types/json-schema` is installed, and both must stay assignable here
  readonly jsonSchema: object | PromiseLike<object>;
  readonly validate?: (
    value: unknown,
  ) => JsonSchemaInputValidation<Output> | PromiseLike<JsonSchemaInputValidation<Output>>;
}

/** The marker AI SDK puts on its schema objects; {@link jsonSchemaInput} sets it too. */
export const JSON_SCHEMA_INPUT_MARKER: unique symbol = Symbol.for('vercel.ai.schema') as never;

/**
 * Wraps a JSON Schema as a tool input schema, interchangeable with AI SDK's `jsonSchema()`: Awaken
 * validates arguments against it (JSON Schema 2020-12 unless `$schema` says otherwise) and sends it
 * to the model unchanged. `validate` may check or transform further after the schema passed.
 */
export function jsonSchemaInput<Output = unknown>(
  schema: JsonSchema,
  options: { validate?: JsonSchemaInput<Output>['validate'] } = {},
): JsonSchemaInput<Output> {
  // `validate` is always present, possibly undefined: AI SDK recognises its schemas by that key too
  return {
    [JSON_SCHEMA_INPUT_MARKER]: true,
    jsonSchema: schema,
    validate: options.validate,
  } as JsonSchemaInput<Output>;
}

/**
 * What a tool's input may be described with: a zod 4 schema or any other Standard Schema, or a JSON
 * Schema wrapped by {@link jsonSchemaInput} / AI SDK's `jsonSchema()`. A function returning one of
 * these (AI SDK's `lazySchema`) is accepted too.
 */
export type ToolInputSchema<Input = any> =
  | StandardSchemaLike<Input>
  | JsonSchemaInput<Input>
  | (() => StandardSchemaLike<Input> | JsonSchemaInput<Input>);
