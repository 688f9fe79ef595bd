import type { PathSegment } from '../rule-ast';

/** What {@link someValue} found: no value at the path, values none of which passed, or a pass. */
export const NO_VALUE = 0;
export const NONE_PASSED = 1;
export const SOME_PASSED = 2;
export type PathVisit = typeof NO_VALUE | typeof NONE_PASSED | typeof SOME_PASSED;

/**
 * Walks `path` from `value` and tests every value it reaches (several through `[*]`: each array
 * element, or each value of an object), stopping at the first pass. A missing step or a step into a
 * non-container reaches nothing. Allocation-free except for `[*]` over an object.
 */
export function someValue(
  value: unknown,
  path: readonly PathSegment[],
  start: number,
  test: (value: unknown) => boolean,
): PathVisit {
  let current = value;
  for (let index = start; index < path.length; index++) {
    if (typeof current !== 'object' || current === null) return NO_VALUE;
    const segment = path[index]!;
    if (segment.kind === 'property') {
      if (Array.isArray(current) || !Object.hasOwn(current, segment.name)) return NO_VALUE;
      current = (current as Record<string, unknown>)[segment.name];
      if (current === undefined) return NO_VALUE;
    } else if (segment.kind === 'index') {
      if (!Array.isArray(current) || segment.index >= current.length) return NO_VALUE;
      current = current[segment.index];
    } else {
      const items: unknown[] = Array.isArray(current) ? current : Object.values(current);
      let reached: PathVisit = NO_VALUE;
      for (const item of items) {
        const visit = someValue(item, path, index + 1, test);
        if (visit === SOME_PASSED) return SOME_PASSED;
        if (visit === NONE_PASSED) reached = NONE_PASSED;
      }
      return reached;
    }
  }
  return test(current) ? SOME_PASSED : NONE_PASSED;
}

/** Every value the path reaches in `root` (none when missing, several through `[*]`). */
export function resolvePath(root: unknown, path: readonly PathSegment[]): unknown[] {
  const values: unknown[] = [];
  someValue(root, path, 0, (value) => {
    values.push(value);
    return false;
  });
  return values;
}

/** The text a glob or regex is tested against: strings as they are, numbers and booleans printed. */
export function asMatchText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}
