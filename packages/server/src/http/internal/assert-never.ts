import { AwakenError } from '@awaken/contract';

/** The end of an exhaustive switch. */
export function assertNever(value: never): never {
  throw new AwakenError('internal', `unexpected value ${String(value)}`);
}
