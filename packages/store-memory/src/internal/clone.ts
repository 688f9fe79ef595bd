/**
 * Copies a value in and out of the store so callers can never mutate stored state through a
 * reference they passed in or got back (what a network store gives for free).
 */
export function clone<T>(value: T): T {
  return structuredClone(value);
}
