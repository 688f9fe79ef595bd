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
