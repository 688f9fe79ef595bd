/**
 * Finds a `pattern` (or `patternProperties` key) in a JSON Schema whose regular expression can
 * backtrack catastrophically: a quantified group that itself contains an unbounded quantifier
 * (`(a+)+`, `(\w*)*`, `(x+y?){2,}`). JavaScript's engine backtracks, so such a pattern checked
 * against a crafted string of a few dozen characters blocks the event loop for seconds — and tool
 * arguments come from a model, schemas from MCP servers.
 *
 * This is a star-height check, not a proof of safety: it rejects every nested unbounded quantifier
 * and accepts everything else.
 */
export function findUnsafePattern(schema: unknown, depth = 0): string | undefined {
  if (depth > 256 || schema === null || typeof schema !== 'object') return undefined;
  if (Array.isArray(schema)) {
    for (const item of schema) {
      const found = findUnsafePattern(item, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'pattern' && typeof value === 'string' && hasNestedQuantifier(value)) return value;
    if (key === 'patternProperties' && value !== null && typeof value === 'object') {
      const unsafe = Object.keys(value).find(hasNestedQuantifier);
      if (unsafe !== undefined) return unsafe;
    }
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    const found = findUnsafePattern(value, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

const UNBOUNDED = /^(?:[*+]|\{\d+,\})/;
const QUANTIFIER = /^(?:[*+?]|\{\d+(?:,\d*)?\})/;

/** True when a quantified group contains an unbounded quantifier (star height ≥ 2). */
export function hasNestedQuantifier(source: string): boolean {
  // One frame per open group: whether an unbounded quantifier occurred inside it.
  const groups: boolean[] = [];
  let index = 0;
  while (index < source.length) {
    const char = source[index];
    if (char === '\\') {
      index += 2;
      continue;
    }
    if (char === '[') {
      index = skipClass(source, index);
      continue;
    }
    if (char === '(') {
      groups.push(false);
      index += 1;
      continue;
    }
    if (char === ')') {
      const innerUnbounded = groups.pop() ?? false;
      const rest = source.slice(index + 1);
      const quantifier = QUANTIFIER.exec(rest)?.[0];
      if (innerUnbounded && quantifier !== undefined && repeats(quantifier)) return true;
      const unboundedHere = innerUnbounded || (quantifier !== undefined && UNBOUNDED.test(quantifier));
      if (unboundedHere && groups.length > 0) groups[groups.length - 1] = true;
      index += 1 + (quantifier?.length ?? 0);
      continue;
    }
    if (groups.length > 0 && UNBOUNDED.test(source.slice(index, index + 16)))
      groups[groups.length - 1] = true;
    index += 1;
  }
  return false;
}

/** True when the quantifier lets its atom match more than once. */
function repeats(quantifier: string): boolean {
  if (quantifier === '?') return false;
  if (!quantifier.startsWith('{')) return true;
  const [, lower, comma, upper] = /^\{(\d+)(,?)(\d*)\}$/.exec(quantifier) ?? [];
  if (comma === '') return Number(lower) > 1;
  return upper === '' || Number(upper) > 1;
}

function skipClass(source: string, start: number): number {
  let index = start + 1;
  while (index < source.length && source[index] !== ']') index += source[index] === '\\' ? 2 : 1;
  return index + 1;
}
