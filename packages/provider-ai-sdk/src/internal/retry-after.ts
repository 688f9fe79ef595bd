/**
 * The delay a provider asked for, in milliseconds, from `retry-after-ms` (OpenAI) or `retry-after`
 * (seconds or an HTTP date). Header names are matched case-insensitively; a missing, negative or
 * unparseable value gives `undefined`.
 */
export function retryAfterMsFrom(
  headers: Record<string, string> | undefined,
  now = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const milliseconds = numberOf(header(headers, 'retry-after-ms'));
  if (milliseconds !== undefined) return Math.ceil(milliseconds);
  const value = header(headers, 'retry-after');
  if (value === undefined) return undefined;
  const seconds = numberOf(value);
  if (seconds !== undefined) return Math.ceil(seconds * 1000);
  // A number that is not a valid delay (e.g. `-1`) is not a date either, though `Date.parse` reads it as one.
  if (value.trim() !== '' && !Number.isNaN(Number(value))) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function header(headers: Record<string, string>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return value;
  }
  return undefined;
}

function numberOf(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 ? number : undefined;
}
