import { AwakenError, type AwakenErrorCode } from '@awaken/contract';
import { expect } from 'vitest';
import type { z } from 'zod';

/** Asserts `value` passes `schema` unchanged (no missing, invalid or extra fields) and returns it. */
export function expectValid<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new Error(`record fails the contract schema: ${JSON.stringify(result.error.issues)}`);
  }
  expect(result.data).toEqual(value);
  return result.data;
}

/** Asserts `promise` rejects with an AwakenError of `code`. */
export async function expectAwakenError(promise: Promise<unknown>, code: AwakenErrorCode): Promise<void> {
  const outcome = await promise.then(
    (value) => ({ rejected: false as const, value }),
    (error: unknown) => ({ rejected: true as const, error }),
  );
  if (!outcome.rejected) {
    throw new Error(`expected AwakenError(${code}), but it resolved with ${JSON.stringify(outcome.value)}`);
  }
  if (!AwakenError.isInstance(outcome.error)) {
    throw new Error(`expected AwakenError(${code}), got ${String(outcome.error)}`);
  }
  expect(outcome.error.code).toBe(code);
}

/** Asserts `promise` rejects with `validation_failed` whose message names `field` (a pattern). */
export async function expectInvalidField(promise: Promise<unknown>, field: RegExp): Promise<void> {
  const error = await promise.then(
    (value) => {
      throw new Error(
        `expected validation_failed naming ${field}, but it resolved with ${JSON.stringify(value)}`,
      );
    },
    (caught: unknown) => caught,
  );
  if (!AwakenError.hasCode(error, 'validation_failed')) {
    throw new Error(`expected validation_failed naming ${field}, got ${String(error)}`);
  }
  expect(error.message).toMatch(field);
}

/** How many of `results` were fulfilled, and their values. */
export function fulfilled<T>(results: PromiseSettledResult<T>[]): T[] {
  return results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
}
