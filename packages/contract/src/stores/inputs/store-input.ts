import type { z } from 'zod';
import { parseWith } from '../../errors/validation';
import { isJsonChecked } from './fields';

/**
 * The validated input of one store operation. Every backend calls `parse` before it touches data, so
 * all of them accept and reject exactly the same inputs: a caller's mistake is
 * `AwakenError('validation_failed')` whose message names each offending field, never a retryable
 * `store_failure`, and nothing is written.
 */
export interface StoreInput<S extends z.ZodType> {
  /** The operation's name, as error messages show it. */
  readonly operation: string;
  readonly schema: S;
  /** The parsed input (defaults applied, values copied), or `validation_failed`. */
  parse(input: unknown): z.output<S>;
  /** Whether the input carries values a store keeps (JSON-checked and copied), not only ids and numbers. */
  readonly carriesValues: boolean;
}

/**
 * Defines an operation's input. `fast`, when given, is a cheap check for the hot paths: it returns
 * the parsed input only when the schema would return exactly that value, and `undefined` to let the
 * schema decide (and word the error), so results never differ from parsing with the schema alone.
 */
export function defineStoreInput<S extends z.ZodType>(
  operation: string,
  schema: S,
  fast?: (input: unknown) => z.output<S> | undefined,
): StoreInput<S> {
  const what = `${operation} input`;
  return {
    operation,
    schema,
    carriesValues: isJsonChecked(schema),
    parse(input) {
      const quick = fast?.(input);
      return quick === undefined ? parseWith(schema, input, what) : quick;
    },
  };
}
