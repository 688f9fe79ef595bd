import type { JSONValue } from '@ai-sdk/provider';

/**
 * Turns any value into a JSON value a provider can serialise: `undefined` becomes `null`, objects go
 * through a JSON round trip (dates become strings, `undefined` fields disappear), and values JSON
 * cannot represent (cycles, bigints) become their string form rather than failing the request.
 */
export function toJsonValue(value: unknown): JSONValue {
  if (value === undefined) return null;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  // Tool arguments and outputs are nearly always plain JSON already: a check is far cheaper than a copy.
  if (isPlainJson(value, 0)) return value as JSONValue;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : (JSON.parse(text) as JSONValue);
  } catch {
    return String(value);
  }
}

/** A readable text for a value: strings as is, anything else as JSON. */
export function toReadableText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  const json = toJsonValue(value);
  return typeof json === 'string' ? json : JSON.stringify(json);
}

const MAX_CHECK_DEPTH = 64;

function isPlainJson(value: unknown, depth: number): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || depth > MAX_CHECK_DEPTH) return false;
  if (Array.isArray(value)) return value.every((item) => isPlainJson(item, depth + 1));
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    if (field !== undefined && !isPlainJson(field, depth + 1)) return false;
  }
  return true;
}
