/**
 * The JSON form of a value already known to be JSON-safe (a store's trusted path, see
 * `trustedStoreInputs`; a tool output `findJsonIssue` passed): what
 * `JSON.parse(JSON.stringify(value))` gives, made by a direct walk: members that are `undefined`,
 * functions or symbols dropped (`null` in an array), `-0` and non-finite numbers as JSON writes them;
 * an object with a `toJSON` or a prototype other than Object's goes through JSON itself. `undefined`
 * where JSON writes nothing at all (the value is `undefined`, a function, a symbol). It does not
 * check the value (a cycle overflows the stack, a BigInt stays one): a caller's input goes through
 * `copyJsonValue` instead.
 */
export function jsonCopy<T>(value: T): T {
  return copyJson(value) as T;
}

/** The JSON form of `value`, or `undefined` where JSON writes nothing. */
function copyJson(value: unknown): unknown {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? value + 0 : null;
    case 'string':
    case 'boolean':
      return value;
    case 'object':
      if (value === null) return null;
      break;
    default:
      return undefined;
  }
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) {
      const item = copyJson(value[index]);
      copy[index] = item === undefined ? null : item;
    }
    return copy;
  }
  const prototype = Object.getPrototypeOf(value);
  if (
    (prototype !== Object.prototype && prototype !== null) ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyJson((value as Record<string, unknown>)[key]);
    if (item === undefined) continue;
    // an own `__proto__` member stays data, not the copy's prototype
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy;
}
