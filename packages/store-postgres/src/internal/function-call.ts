/** A value passed to a server-side function, rendered as an SQL literal. */
export type SqlValue = string | number | boolean | null | readonly string[];

/** One call of a function of the store's schema; the request id, re-send flag and clock mode come first, added by the sender. */
export interface FunctionCall {
  fn: string;
  args: readonly SqlValue[];
}

/** A string as an SQL literal (node-postgres' escapeLiteral: quotes doubled; backslashes doubled in an E'' literal). */
function stringLiteral(text: string): string {
  if (text.includes('\0')) throw new Error('an SQL literal cannot hold NUL'); // keys and JSON never do
  const quoted = text.replaceAll("'", "''");
  return text.includes('\\') ? `E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

/** The SQL literal of `value`: numbers must be safe integers, arrays are text[]. */
export function sqlLiteral(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`not a safe integer: ${value}`);
    return String(value);
  }
  if (typeof value === 'string') return stringLiteral(value);
  return value.length === 0 ? `'{}'::text[]` : `ARRAY[${value.map(stringLiteral).join(', ')}]::text[]`;
}
