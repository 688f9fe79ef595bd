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

/** What JSON leaves out of an object and writes as `null` in an array. */
const skipped = (value: unknown): boolean =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';

/**
 * The JSON form of a value the runtime built and checked (its store's trusted path): what the
 * validating path keeps, `JSON.parse(JSON.stringify(value))`, made once by a direct walk: members
 * that are `undefined`, functions or symbols dropped (`null` in an array), `-0` and non-finite
 * numbers as JSON writes them; an object with a `toJSON` or a prototype other than Object's goes
 * through JSON itself.
 */
export function jsonCopy<T>(value: T): T {
  return copyJson(value) as T;
}

function copyJson(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value + 0 : null;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      copy[index] = skipped(item) ? null : copyJson(item);
    }
    return copy;
  }
  const prototype = Object.getPrototypeOf(value);
  if (
    (prototype !== Object.prototype && prototype !== null) ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    return JSON.parse(JSON.stringify(value));
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (skipped(item)) continue;
    if (key === '__proto__')
      Object.defineProperty(copy, key, {
        value: copyJson(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[key] = copyJson(item);
  }
  return copy;
}
