/** The deepest nesting of arrays and objects a stored JSON value may have. */
export const MAX_JSON_DEPTH = 256;

/** `String.prototype.isWellFormed` (Node 20; not yet in the ES2023 lib typings). */
type WellFormedCheck = { isWellFormed(): boolean };

/**
 * True when `value` has no lone UTF-16 surrogate. Only such text survives UTF-8 (and so Redis, Lua
 * and any other process) unchanged: `JSON.stringify` writes a lone surrogate as a `\uD800`-style
 * escape that strict JSON decoders reject, and an encoder to UTF-8 replaces it by U+FFFD.
 */
export function isWellFormedText(value: string): boolean {
  return (value as unknown as WellFormedCheck).isWellFormed();
}

const LONE_SURROGATE = 'has a lone UTF-16 surrogate (not well-formed Unicode)';

/** Why a value cannot be stored as JSON, and where: `path` is like `result.items[2].price`. */
export interface JsonIssue {
  path: string;
  message: string;
}

function describe(value: unknown): string {
  if (typeof value === 'bigint') return 'a BigInt';
  if (typeof value === 'number') return `the number ${String(value)}`;
  return `a ${typeof value}`;
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/**
 * Finds the first part of `value` that JSON cannot hold faithfully, walking it as `JSON.stringify`
 * would (honouring `toJSON`, skipping `undefined`, functions and symbols inside objects): a BigInt, a
 * NaN or infinite number, a string or member name with a lone UTF-16 surrogate (see
 * {@link isWellFormedText}: text cut inside an emoji, which no UTF-8 store can keep as it is), a cycle,
 * nesting deeper than `maxDepth` (default {@link MAX_JSON_DEPTH}), or a function / symbol as the value
 * itself. Returns `undefined` when the value can be stored.
 *
 * Guarantees: never throws (a throwing `toJSON` is reported as an issue) and never recurses deeper
 * than `maxDepth + 1`, so a value nested tens of thousands deep is reported, not a stack overflow.
 */
export function findJsonIssue(
  value: unknown,
  options: { maxDepth?: number; path?: string } = {},
): JsonIssue | undefined {
  const walk: Walk = {
    maxDepth: options.maxDepth ?? MAX_JSON_DEPTH,
    ancestors: new Set<object>(),
    base: options.path ?? '',
    segments: [],
  };
  return visit(walk, value, 0, false);
}

/** One walk's state: the path is kept as segments and spelled out only for an issue. */
interface Walk {
  readonly maxDepth: number;
  readonly ancestors: Set<object>;
  readonly base: string;
  readonly segments: (string | number)[];
}

function issueAt(walk: Walk, message: string): JsonIssue {
  let path = walk.base;
  for (const segment of walk.segments) path = join(path, segment);
  return { path, message };
}

function visit(walk: Walk, current: unknown, depth: number, inObject: boolean): JsonIssue | undefined {
  let item = current;
  if (item !== null && (typeof item === 'object' || typeof item === 'bigint')) {
    const toJSON = (item as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      try {
        item = toJSON.call(item, '');
      } catch (error) {
        return issueAt(walk, `toJSON threw: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  switch (typeof item) {
    case 'string':
      return isWellFormedText(item) ? undefined : issueAt(walk, `a string that ${LONE_SURROGATE}`);
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(item) ? undefined : issueAt(walk, `${describe(item)} is not JSON`);
    case 'bigint':
      return issueAt(walk, 'a BigInt is not JSON');
    case 'undefined':
      return undefined;
    case 'function':
    case 'symbol':
      return inObject ? undefined : issueAt(walk, `${describe(item)} is not JSON`);
    case 'object':
      return item === null ? undefined : visitObject(walk, item, depth);
    default:
      return issueAt(walk, `${describe(item)} is not JSON`);
  }
}

function visitObject(walk: Walk, item: object, depth: number): JsonIssue | undefined {
  const { ancestors, segments } = walk;
  if (ancestors.has(item)) return issueAt(walk, 'a cycle is not JSON');
  if (depth >= walk.maxDepth) return issueAt(walk, `nests deeper than ${walk.maxDepth} levels`);
  ancestors.add(item);
  try {
    if (Array.isArray(item)) {
      for (let index = 0; index < item.length; index += 1) {
        segments.push(index);
        const issue = visit(walk, item[index], depth + 1, false);
        segments.pop();
        if (issue) return issue;
      }
      return undefined;
    }
    for (const key of Object.keys(item)) {
      if (!isWellFormedText(key)) {
        return issueAt(walk, `the member name ${JSON.stringify(key)} ${LONE_SURROGATE}`);
      }
      segments.push(key);
      const issue = visit(walk, (item as Record<string, unknown>)[key], depth + 1, true);
      segments.pop();
      if (issue) return issue;
    }
    return undefined;
  } finally {
    ancestors.delete(item);
  }
}

/** The issue as one line: `path: message` (or just the message at the root). */
export function formatJsonIssue(issue: JsonIssue): string {
  return issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`;
}
