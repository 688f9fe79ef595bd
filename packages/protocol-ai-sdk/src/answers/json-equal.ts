/** Equality of two JSON values (object key order ignored; `undefined` members count as absent). */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right))
    return left.length === right.length && left.every((item, index) => jsonEqual(item, right[index]));
  const a = Object.entries(left).filter(([, value]) => value !== undefined);
  const b = new Map(Object.entries(right).filter(([, value]) => value !== undefined));
  return a.length === b.size && a.every(([key, value]) => b.has(key) && jsonEqual(value, b.get(key)));
}
