const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * True when two JSON values say the same thing: equal primitives, arrays equal item by item, objects
 * with the same own keys holding equal values (in any order; a member holding `undefined` counts as
 * absent, as JSON drops it). An exact comparison, not a digest: two different values never compare
 * equal. The values must already be checked JSON (`findJsonIssue`), so their depth is bounded.
 */
export function sameJson(left: unknown, right: unknown): boolean {
  if (Object.is(left, right)) return true;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((item, index) => sameJson(item ?? null, right[index] ?? null));
  }
  if (!isObject(left) || !isObject(right)) return false;
  const keys = (value: Record<string, unknown>) =>
    Object.keys(value).filter((key) => value[key] !== undefined);
  const leftKeys = keys(left);
  const rightKeys = keys(right);
  if (leftKeys.length !== rightKeys.length) return false;
  return leftKeys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]));
}
