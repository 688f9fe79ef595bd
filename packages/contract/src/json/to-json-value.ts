import { AwakenError } from '../errors/awaken-error';
import { type JsonIssue, findJsonIssue, formatJsonIssue } from './find-json-issue';

/**
 * The JSON form of `value` — what a store keeps and every backend reads back alike — or, when JSON
 * cannot hold it faithfully (see `findJsonIssue`: a BigInt, NaN or ±Infinity, a cycle, nesting beyond
 * `MAX_JSON_DEPTH`, a function or symbol where a value is needed, a throwing `toJSON`), `undefined`
 * after reporting the issue to `report`.
 *
 * The JSON form is what `JSON.parse(JSON.stringify(value))` gives, as the runtime stores tool outputs:
 * `toJSON` is honoured (a `Date` becomes its ISO string), object members that are `undefined`,
 * functions or symbols are dropped, `undefined` array elements become `null`, `-0` becomes `0`, an
 * object keeps its own enumerable members (a `Map` becomes `{}`), an own `__proto__` member stays
 * data. The copy shares nothing with `value`.
 */
export function copyJsonValue(value: unknown, report: (issue: JsonIssue) => void): unknown {
  const issue = findJsonIssue(value);
  if (issue !== undefined) {
    report(issue);
    return undefined;
  }
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

/**
 * The JSON form of `value` (see {@link copyJsonValue}); throws `AwakenError('validation_failed')`
 * naming where JSON cannot hold it.
 */
export function toJsonValue<T>(value: T, what = 'value'): T {
  let found: JsonIssue | undefined;
  const result = copyJsonValue(value, (issue) => {
    found = issue;
  });
  if (found !== undefined) {
    throw new AwakenError('validation_failed', `invalid ${what}: ${formatJsonIssue(found)}`, {
      details: { issues: [{ path: found.path, message: found.message }] },
    });
  }
  return result as T;
}
