import { AwakenError } from './awaken-error';

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The exhaustiveness check that ends every `switch` over a union: it only type-checks when every
 * member was handled, and at run time (a value from a newer peer, a corrupt record) it throws
 * `AwakenError('internal')` naming what was unexpected.
 */
export function assertNever(value: never, what = 'value'): never {
  throw new AwakenError('internal', `unexpected ${what}: ${describe(value)}`);
}
