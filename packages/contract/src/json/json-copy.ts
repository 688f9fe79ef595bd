/** What JSON leaves out of an object and writes as `null` in an array. */
const skipped = (value: unknown): boolean =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';

/**
 * The JSON form of a value already known to be JSON-safe (a store's trusted path, see
 * `trustedStoreInputs`): what `JSON.parse(JSON.stringify(value))` gives, made by a direct walk: members
 * that are `undefined`, functions or symbols dropped (`null` in an array), `-0` and non-finite
 * numbers as JSON writes them; an object with a `toJSON` or a prototype other than Object's goes
 * through JSON itself. It does not check the value (a cycle overflows the stack, a BigInt stays one):
 * a caller's input goes through `copyJsonValue` instead.
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
