import type { PathSegment } from '../rule-ast';

function step(value: unknown, segment: PathSegment, out: unknown[]): void {
  if (typeof value !== 'object' || value === null) return;
  switch (segment.kind) {
    case 'property':
      if (!Array.isArray(value) && Object.hasOwn(value, segment.name)) {
        const child = (value as Record<string, unknown>)[segment.name];
        if (child !== undefined) out.push(child);
      }
      return;
    case 'index':
      if (Array.isArray(value) && segment.index < value.length) out.push(value[segment.index]);
      return;
    case 'wildcard':
      out.push(...(Array.isArray(value) ? value : Object.values(value)));
      return;
    default: {
      const exhaustive: never = segment;
      throw new Error(`unknown path segment ${JSON.stringify(exhaustive)}`);
    }
  }
}

/**
 * Every value the path reaches in `root`: none when a step is missing or not a container, several
 * when the path goes through `[*]` (each array element, or each value of an object).
 */
export function resolvePath(root: unknown, path: readonly PathSegment[]): unknown[] {
  let current: unknown[] = [root];
  for (const segment of path) {
    const next: unknown[] = [];
    for (const value of current) step(value, segment, next);
    if (next.length === 0) return next;
    current = next;
  }
  return current;
}

/** The text a glob or regex is tested against: strings as they are, numbers and booleans printed. */
export function asMatchText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}
