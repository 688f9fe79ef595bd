/**
 * Copies a value in and out of the store so callers can never mutate stored state through a
 * reference they passed in or got back (what a network store gives for free).
 *
 * Stored records are JSON data, so plain objects and arrays are copied by a direct walk, several
 * times faster than `structuredClone` (which serialises); anything else (a Date, a Map, a class
 * instance a caller slipped in) still goes through `structuredClone`.
 */
export function clone<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(clone) as T;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = clone((value as Record<string, unknown>)[key]);
    // an own `__proto__` key (a tool call id, say) must stay data, not become the copy's prototype
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy as T;
}
