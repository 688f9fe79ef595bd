import { AwakenError } from '../errors/awaken-error';

/** Where a value is not JSON: the path to the offending part and what it is. */
export interface JsonValueIssue {
  path: (string | number)[];
  message: string;
}

type Report = (issue: JsonValueIssue) => void;

function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object' && value !== null) {
    return `a ${(value as object).constructor?.name ?? 'null-prototype object'}`;
  }
  return `a ${typeof value}`;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Sets `key` as an own data property, also for `__proto__` (which `copy[key] = ...` would not create). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

function copy(value: unknown, path: (string | number)[], ancestors: Set<object>, report: Report): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) {
        report({ path, message: `not a JSON value: ${value} (JSON numbers are finite)` });
        return undefined;
      }
      return value === 0 ? 0 : value; // -0 is stored as 0, as JSON writes it
    case 'object': {
      if (value === null) return null;
      if (ancestors.has(value)) {
        report({ path, message: 'not a JSON value: a cycle (the value contains itself)' });
        return undefined;
      }
      if (Array.isArray(value)) {
        ancestors.add(value);
        const items = value.map((item, index) => {
          if (item === undefined) {
            report({ path: [...path, index], message: 'not a JSON value: undefined in an array' });
          }
          return copy(item, [...path, index], ancestors, report);
        });
        ancestors.delete(value);
        return items;
      }
      if (!isPlainObject(value)) {
        report({ path, message: `not a JSON value: ${describe(value)} (only plain objects and arrays)` });
        return undefined;
      }
      ancestors.add(value);
      const result: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        const member = (value as Record<string, unknown>)[key];
        // An undefined member is an absent one, as JSON writes it.
        if (member !== undefined) define(result, key, copy(member, [...path, key], ancestors, report));
      }
      ancestors.delete(value);
      return result;
    }
    default:
      report({ path, message: `not a JSON value: ${describe(value)}` });
      return undefined;
  }
}

/**
 * The copy of `value` a store keeps, reporting every part that is not JSON to `report`.
 *
 * JSON here means what every store holds exactly: `null`, booleans, finite numbers, strings, arrays
 * and plain objects of those. An object member whose value is `undefined` is dropped (it is absent,
 * as JSON writes it) and `-0` becomes `0`; anything else — `NaN`, `±Infinity`, `BigInt`, a `Date`, a
 * `Map`, a class instance, a function, a symbol, `undefined` in an array, a cycle — is reported with
 * its path. The copy shares nothing with `value`.
 */
export function copyJsonValue(value: unknown, report: Report): unknown {
  return copy(value, [], new Set(), report);
}

/**
 * The JSON copy of `value` (see {@link copyJsonValue}); throws `AwakenError('validation_failed')`
 * naming the path of every part that is not JSON.
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
