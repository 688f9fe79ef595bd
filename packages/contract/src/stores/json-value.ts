import { AwakenError } from '../errors/awaken-error';

/** The deepest nesting of arrays and objects a stored value may have. */
export const MAX_JSON_DEPTH = 256;

/** Where a value is not JSON: the path to the offending part and what it is. */
export interface JsonValueIssue {
  path: (string | number)[];
  message: string;
}

type Report = (issue: JsonValueIssue) => void;

function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'bigint') return 'a BigInt';
  return `a ${typeof value}`;
}

/** `value` after its `toJSON`, as `JSON.stringify` sees it; a throwing `toJSON` is reported. */
function jsonView(value: unknown, path: (string | number)[], report: Report): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'bigint')) return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON !== 'function') return value;
  try {
    return toJSON.call(value, '');
  } catch (error) {
    report({ path, message: `toJSON threw: ${error instanceof Error ? error.message : String(error)}` });
    return undefined;
  }
}

/** Reports every part of `value` that JSON cannot hold faithfully, walking it as `JSON.stringify` does. */
function check(
  value: unknown,
  path: (string | number)[],
  depth: number,
  ancestors: Set<object>,
  report: Report,
): void {
  const item = jsonView(value, path, report);
  switch (typeof item) {
    case 'string':
    case 'boolean':
    case 'undefined':
    case 'function':
    case 'symbol':
      // Inside an object JSON drops these members; inside an array it writes null; `toJsonValue` says
      // what happens at the root.
      return;
    case 'number':
      if (!Number.isFinite(item))
        report({ path, message: `not JSON: ${describe(item)} (JSON numbers are finite)` });
      return;
    case 'object': {
      if (item === null) return;
      if (ancestors.has(item)) {
        report({ path, message: 'not JSON: a cycle (the value contains itself)' });
        return;
      }
      if (depth >= MAX_JSON_DEPTH) {
        report({ path, message: `not JSON here: nests deeper than ${MAX_JSON_DEPTH} levels` });
        return;
      }
      ancestors.add(item);
      if (Array.isArray(item)) {
        for (let index = 0; index < item.length; index += 1) {
          check(item[index], [...path, index], depth + 1, ancestors, report);
        }
      } else {
        for (const key of Object.keys(item)) {
          check((item as Record<string, unknown>)[key], [...path, key], depth + 1, ancestors, report);
        }
      }
      ancestors.delete(item);
      return;
    }
    default:
      report({ path, message: `not JSON: ${describe(item)}` });
  }
}

/**
 * The JSON form of `value` — what a store keeps and every backend reads back alike — reporting every
 * part JSON cannot hold faithfully to `report` (the result is then meaningless).
 *
 * The JSON form is what `JSON.parse(JSON.stringify(value))` gives, as the runtime stores tool
 * outputs: `toJSON` is honoured (a `Date` becomes its ISO string), object members that are
 * `undefined`, functions or symbols are dropped, such array elements become `null`, `-0` becomes `0`,
 * an object keeps its own enumerable members (a `Map` becomes `{}`), an own `__proto__` member stays
 * data. Reported, with its path: a `BigInt`, `NaN` or `±Infinity` (JSON would turn it into `null`), a
 * cycle, nesting deeper than {@link MAX_JSON_DEPTH}, a throwing `toJSON`. The copy shares nothing with
 * `value`.
 */
export function copyJsonValue(value: unknown, report: Report): unknown {
  let failed = false;
  check(value, [], 0, new Set(), (issue) => {
    failed = true;
    report(issue);
  });
  if (failed) return undefined;
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

/**
 * The JSON form of `value` (see {@link copyJsonValue}); throws `AwakenError('validation_failed')`
 * naming the path of every part JSON cannot hold faithfully.
 */
export function toJsonValue<T>(value: T, what = 'value'): T {
  const issues: JsonValueIssue[] = [];
  const result = copyJsonValue(value, (issue) => issues.push(issue));
  if (issues.length > 0) {
    const listed = issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new AwakenError('validation_failed', `invalid ${what}: ${listed.join('; ')}`, {
      details: { issues: issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) },
    });
  }
  return result as T;
}
