import { createHash } from 'node:crypto';

/**
 * The key column form of an id. PostgreSQL text cannot hold NUL, and ids may contain any character:
 * `\` becomes `\\` and NUL becomes `\0`, an injective escape (two ids never share a key). Records keep
 * the ids as given, in their JSON documents; keys are only compared, never decoded.
 */
export function key(id: string): string {
  return id.includes('\0') || id.includes('\\')
    ? id.replace(/[\\\0]/g, (c) => (c === '\\' ? '\\\\' : '\\0'))
    : id;
}

/** NOTIFY payloads hold under 8000 bytes: a longer key is sent as `#` + its SHA-256. */
export function payloadOf(keyText: string): string {
  return Buffer.byteLength(keyText) < 7000
    ? keyText
    : `#${createHash('sha256').update(keyText).digest('hex')}`;
}
