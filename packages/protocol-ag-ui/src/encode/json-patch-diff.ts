import type { JsonPatchOperation } from '../wire/ag-ui-event';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An RFC 6901 reference token: `~` and `/` escaped. */
function token(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * An RFC 6902 patch turning `before` into `after` (JSON values): objects are compared key by key,
 * recursively; anything else that differs (arrays included) is replaced whole. Applying the patch
 * to a copy of `before` gives a value equal to `after`.
 */
export function diffJson(before: unknown, after: unknown, path = ''): JsonPatchOperation[] {
  if (same(before, after)) return [];
  if (!isObject(before) || !isObject(after)) return [{ op: 'replace', path, value: after }];
  const ops: JsonPatchOperation[] = [];
  for (const key of Object.keys(before)) {
    if (!(key in after) || after[key] === undefined)
      ops.push({ op: 'remove', path: `${path}/${token(key)}` });
  }
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const at = `${path}/${token(key)}`;
    if (!(key in before) || before[key] === undefined) ops.push({ op: 'add', path: at, value });
    else ops.push(...diffJson(before[key], value, at));
  }
  return ops;
}
